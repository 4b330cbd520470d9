import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { autoPostPage, makeKeyAndCert, readAuthnRequest, TestIdp } from '../../apps/server/src/sso/testing/testIdp';
import { signIn, signOut } from './helpers';

/**
 * A full SP-initiated SAML sign-in in Chromium. The identity provider is samlify inside this test process,
 * behind a loopback HTTP server: it answers the redirect by auto-posting a signed response to our consumer.
 */

const SSO_EMAIL = 'sso.person@e2e.test';
const SSO_IDENTIFIER = 'sso-person-nameid';

let server: Server;
let idp: TestIdp;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      const request = readAuthnRequest(`http://127.0.0.1${req.url ?? '/'}`);
      const response = await idp.respond({
        nameId: SSO_IDENTIFIER,
        inResponseTo: request.id,
        acsUrl: request.acsUrl,
        audience: request.issuer,
        attributes: { email: SSO_EMAIL, groups: ['analysts', 'admins'] },
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(autoPostPage(request.acsUrl, response, request.relayState));
    })().catch((err: unknown) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  idp = await TestIdp.create({ signInEndpoint: `http://127.0.0.1:${port}/sso` });
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The administrator configures SSO and creates the SSO user through the API, with the console session. */
async function setUpSso(page: Page) {
  const setup = await page.evaluate(
    async ({ signInEndpoint, cert, email, identifier }) => {
      const post = async (path: string, body: unknown) => {
        const res = await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-svc-console': '1' },
          body: JSON.stringify(body),
        });
        return `${res.status} ${await res.text()}`;
      };
      return [
        await post('/v3/account/sso_setting', { sso_setting: { sign_in_endpoint: signInEndpoint, cert } }),
        await post('/v3/user/create_with_sso/Sso', { sso_setting: { user_first_name: 'Sso', email, identifier } }),
      ];
    },
    { signInEndpoint: idp.signInEndpoint, cert: idp.keys.certPem, email: SSO_EMAIL, identifier: SSO_IDENTIFIER },
  );
  // The user exists already when another test of this file ran first.
  expect(setup[0]?.slice(0, 3)).toBe('200');
  expect(['200', '409']).toContain(setup[1]?.slice(0, 3));
}

test('a person signs in through the identity provider and lands in the console as themself', async ({ page }) => {
  await signIn(page);
  await setUpSso(page);

  await page.goto('/settings/sso');
  await expect(page.getByRole('table', { name: /Certificate CN=Test IdP/ })).toBeVisible();
  const link = new URL(await page.getByRole('textbox', { name: 'Sign-in link for your users' }).inputValue());
  expect(link.pathname).toBe('/login');
  await signOut(page);

  // Without an e-mail address or the account ID the page asks for one of them.
  await page.goto('/login?next=%2Fsettings%2Fapi-keys');
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await expect(page.getByText('Enter your e-mail address, or your account ID for single sign-on.')).toBeVisible();
  await page.getByLabel('Account ID').fill(link.searchParams.get('account') ?? '');
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();

  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByText(SSO_EMAIL)).toBeVisible();
});

test('a person of a claimed e-mail domain is sent to the identity provider from the address alone', async ({
  page,
}) => {
  // Four sign-ins, two through the identity provider.
  test.slow();
  await signIn(page);
  await setUpSso(page);
  await page.goto('/settings/sso');
  // The domain of the administrator's own address is offered.
  await expect(page.getByLabel('Domain to claim')).toHaveValue('e2e.test');
  await page.getByRole('button', { name: 'Claim domain' }).click();
  await expect(
    page.getByRole('table', { name: 'Claimed domains' }).getByRole('cell', { name: 'e2e.test', exact: true }),
  ).toBeVisible();
  await page.getByLabel('Domain to claim').fill('elsewhere.test');
  await page.getByRole('button', { name: 'Claim domain' }).click();
  await expect(page.getByText('You can claim only the domain of your own e-mail address (e2e.test)')).toBeVisible();
  await page.getByRole('table', { name: 'Claimed domains' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: '../docs/screenshots/sso-claimed-domains.png' });
  await signOut(page);

  // An address of a domain nobody claimed: the page says SSO is not set up for it, and asks for the account ID.
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill('someone@nobody-claimed.test');
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await expect(page.getByText('Single sign-on is not set up for this e-mail address.')).toBeVisible();
  await expect(page.getByLabel('Account ID')).toBeVisible();

  await page.goto('/login?next=%2Fsettings%2Fapi-keys');
  await page.getByLabel('E-mail', { exact: true }).fill(SSO_EMAIL);
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByText(SSO_EMAIL)).toBeVisible();
  await signOut(page);

  // The claim is released again, so other tests of the run see the domain unclaimed.
  await signIn(page);
  await page.goto('/settings/sso');
  await page.getByRole('button', { name: 'Release e2e.test' }).click();
  await expect(page.getByRole('table', { name: 'Claimed domains' })).toHaveCount(0);
});

test('Test SSO shows the asserted NameID, the attributes and the user it maps to', async ({ page }) => {
  // A sign-in and a round trip through the identity provider.
  test.slow();
  await signIn(page);
  await setUpSso(page);
  await page.goto('/settings/sso');
  await page.getByRole('link', { name: 'Test SSO' }).click();
  await expect(page.getByText('Test SSO passed')).toBeVisible();
  const details = page.getByRole('table', { name: 'Last Test SSO' });
  await expect(details.getByText(SSO_IDENTIFIER)).toBeVisible();
  await expect(details.getByText(`${SSO_EMAIL} (SSO enforced)`)).toBeVisible();
  const attributes = page.getByRole('table', { name: 'Asserted attributes' });
  await expect(attributes.getByRole('row', { name: 'groups analysts, admins' })).toBeVisible();
  await expect(attributes.getByRole('row', { name: `email ${SSO_EMAIL}` })).toBeVisible();
  await details.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '../docs/screenshots/sso-test-details.png' });
});

test('a certificate about to expire is told in readable dates and in days, alike in the warning and the list', async ({
  page,
}) => {
  await signIn(page);
  const DAY = 86_400_000;
  const soon = await makeKeyAndCert({ commonName: 'idp.expiring.test', notAfter: new Date(Date.now() + 19.5 * DAY) });
  const saved = await page.request.post('/v3/account/sso_setting', {
    headers: { 'x-svc-console': '1' },
    data: { sso_setting: { sign_in_endpoint: idp.signInEndpoint, cert: soon.certPem } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await page.goto('/settings/sso');
  const warning = page.getByRole('alert').filter({ hasText: 'Certificate expiring' });
  await expect(warning).toContainText('expires in 19 days');
  await expect(warning).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
  const until = new Date(Date.now() + 19.5 * DAY).getUTCFullYear();
  await expect(warning.locator('time')).toContainText(String(until));
  const certificate = page.getByRole('table', { name: /idp\.expiring\.test/ });
  const validUntil = certificate.getByRole('row').filter({ hasText: 'Valid until' });
  await expect(validUntil).toContainText('19 days left');
  await expect(validUntil).not.toContainText(/weeks?|in \d+ days/);
  await page.screenshot({ path: '../docs/screenshots/sso-certificate-expiring.png', fullPage: true });
  await setUpSso(page);
});

test('a refused sign-in is a page in the console’s style, with the reason and the way back', async ({ page }) => {
  await signIn(page);
  const me = (await (await page.request.get('/console-api/me')).json()) as { user: { accountId: number } };
  await signOut(page);
  // An identity provider's answer that is no SAML response at all, posted as a browser would.
  await page.goto('/login');
  await page.evaluate((account) => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = `/sso/saml/acs?account=${account}`;
    for (const [name, value] of [
      ['SAMLResponse', 'bm90IHNhbWw='],
      ['RelayState', 'x'],
    ]) {
      const input = document.createElement('input');
      input.name = name as string;
      input.value = value as string;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  }, me.user.accountId);
  const notice = page.getByRole('alert');
  await expect(notice.getByRole('heading', { name: 'Sign-in refused' })).toBeVisible();
  await expect(page).toHaveTitle('Sign-in refused · SVC console');
  // The console's look: its grey ground, a white card, and the console's type.
  const look = await page.evaluate(() => ({
    ground: getComputedStyle(document.body).backgroundColor,
    card: getComputedStyle(document.querySelector('.card') as Element).backgroundColor,
    font: getComputedStyle(document.body).fontFamily,
  }));
  expect(look).toEqual({
    ground: 'rgb(248, 249, 250)',
    card: 'rgb(255, 255, 255)',
    font: expect.stringMatching(/^system-ui/),
  });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await page.screenshot({ path: '../docs/screenshots/sso-sign-in-refused.png' });
  await page.getByRole('link', { name: 'Back to sign-in' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});
