import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { autoPostPage, readAuthnRequest, TestIdp } from '../../apps/server/src/sso/testing/testIdp';
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

test('a person signs in through the identity provider and lands in the console as themself', async ({ page }) => {
  // The administrator configures SSO and creates the SSO user through the API, with the console session.
  await signIn(page);
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
  expect(setup.map((s) => s.slice(0, 3))).toEqual(['200', '200']);

  await page.goto('/settings/sso');
  await expect(page.getByRole('table', { name: /Certificate CN=Test IdP/ })).toBeVisible();
  const link = new URL(await page.getByRole('textbox', { name: 'Sign-in link for your users' }).inputValue());
  expect(link.pathname).toBe('/login');
  await signOut(page);

  // SSO starts by account, never by e-mail: without the account ID the page asks for it.
  await page.goto('/login?next=%2Fsettings%2Fapi-keys');
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await expect(page.getByText('Enter your account ID for single sign-on.')).toBeVisible();
  await page.getByLabel('Account ID').fill(link.searchParams.get('account') ?? '');
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();

  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByText(SSO_EMAIL)).toBeVisible();
});
