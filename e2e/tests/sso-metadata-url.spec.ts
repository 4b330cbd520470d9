import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { idpMetadataXml, MetadataServer } from '../../apps/server/src/sso/testing/metadataServer';
import { TestIdp } from '../../apps/server/src/sso/testing/testIdp';
import { signIn } from './helpers';

/**
 * Issue 32, point 3: the administrator gives the identity provider's metadata URL (a local HTTP server of
 * this test), sees the setting filled from it, and after "Refresh now" sees the certificate rollover the
 * identity provider published, then its end. The shared account's SSO setting is put back as it was found.
 */

const CONSOLE = { 'x-svc-console': '1' };
const ENTITY = 'https://idp.rollover.test/entity';

interface Found {
  sign_in_endpoint: string;
  sign_out_endpoint: string | null;
  cert: string;
  identity_provider_name: string;
  idp_entity_id: string | null;
}

async function restore(page: Page, found: Found | null) {
  const res = found
    ? await page.request.post('/v3/account/sso_setting', {
        headers: CONSOLE,
        data: {
          sso_setting: {
            sign_in_endpoint: found.sign_in_endpoint,
            sign_out_endpoint: found.sign_out_endpoint,
            cert: found.cert,
            identity_provider_name: found.identity_provider_name,
            entity_id: found.idp_entity_id,
          },
        },
      })
    : await page.request.delete('/v3/account/sso_setting', { headers: CONSOLE });
  // Deleting finds none when the test failed before it saved a setting.
  expect([200, ...(found ? [] : [404])], await res.text()).toContain(res.status());
}

test('the SSO setting is filled from the metadata URL and shows a certificate rollover after Refresh now', async ({
  page,
}) => {
  const server = await MetadataServer.start();
  const signInEndpoint = `${server.origin}/sso`;
  const oldIdp = await TestIdp.create({ entityId: ENTITY, signInEndpoint, cert: { commonName: 'idp.old-key.test' } });
  const newIdp = await TestIdp.create({ entityId: ENTITY, signInEndpoint, cert: { commonName: 'idp.new-key.test' } });
  const serve = (...idps: TestIdp[]) =>
    server.serve('/metadata', {
      body: idpMetadataXml(
        ENTITY,
        signInEndpoint,
        idps.map((i) => i.keys.certPem),
      ),
    });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const before = await page.request.get('/v3/account/sso_setting', { headers: CONSOLE });
  const found = before.status() === 200 ? ((await before.json()) as { sso_setting: Found }).sso_setting : null;
  try {
    const url = serve(oldIdp);
    await page.goto('/settings/sso');
    await page.getByLabel('Identity provider metadata URL').fill(url);
    await page.getByRole('button', { name: 'Fetch and use' }).click();
    await expect(page.getByLabel('Sign-in endpoint')).toHaveValue(signInEndpoint);
    await expect(page.getByLabel('Identity provider entity ID')).toHaveValue(ENTITY);
    await expect(page.getByText(url, { exact: true })).toBeVisible();
    await expect(page.getByRole('table', { name: /Certificate CN=idp\.old-key\.test/ })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Certificate rollover' })).toHaveCount(0);

    // The identity provider publishes its next key beside the current one.
    serve(oldIdp, newIdp);
    await page.getByRole('button', { name: 'Refresh now' }).click();
    const rollover = page.getByRole('alert').filter({ hasText: 'Certificate rollover' });
    await expect(rollover).toContainText('a new signing certificate, CN=idp.new-key.test');
    await expect(rollover).toContainText('the old one is dropped when the metadata no longer lists it');
    // "Seen since" in the console's readable date style, not a raw ISO time.
    await expect(rollover.locator('time')).toContainText(String(new Date().getFullYear()));
    await expect(rollover).not.toContainText(/\d{4}-\d{2}-\d{2}T/);
    const newCert = page.getByRole('table', { name: /Certificate CN=idp\.new-key\.test/ });
    await expect(newCert.getByText('New certificate')).toBeVisible();
    await expect(newCert.getByRole('row').filter({ hasText: 'First seen' }).locator('time')).toBeVisible();
    const oldCert = page.getByRole('table', { name: /Certificate CN=idp\.old-key\.test/ });
    await expect(oldCert.getByText('Old certificate')).toBeVisible();
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    // The confirmations close by themselves; the screenshot shows the rollover without them.
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    await page.getByRole('heading', { name: 'Certificates' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -80));
    const screenshots = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');
    await page.screenshot({ path: resolve(screenshots, 'sso-metadata-rollover.png') });

    // The old key leaves the metadata: the next refresh drops it.
    serve(newIdp);
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(oldCert).toHaveCount(0);
    await expect(rollover).toHaveCount(0);
    await expect(newCert.getByText('New certificate')).toHaveCount(0);

    // A failed refresh says why and keeps the setting.
    server.serve('/metadata', { status: 503 });
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'The last refresh failed' })).toContainText(
      'answered HTTP 503',
    );
    await expect(newCert).toBeVisible();
  } finally {
    await restore(page, found);
    await server.close();
  }
});
