import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { TestIdp } from '../../apps/server/src/sso/testing/testIdp';
import { signIn } from './helpers';

/** Issue 32: a metadata import says what it set, and leaves no identity provider name from before. */
test('importing IdP metadata confirms what it set and derives the name anew', async ({ page }) => {
  const idp = await TestIdp.create();
  const host = `idp-${Date.now()}.example.test`;
  const body = idp.keys.certPem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');
  const metadata = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://${host}/entity">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://${host}/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto('/settings/sso');
  await expect(page.getByRole('heading', { level: 1, name: 'Single sign-on' })).toBeVisible();
  const name = page.getByLabel('Identity provider name');
  await name.fill('Stale IdP');
  await page.getByLabel('Sign-out endpoint').fill('https://old.example.test/logout');

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import IdP metadata XML' }).click();
  await (await chooser).setFiles({ name: 'idp.xml', mimeType: 'application/xml', buffer: Buffer.from(metadata) });

  const notice = page.getByRole('alert').filter({ hasText: 'Imported from idp.xml' });
  await expect(notice).toContainText(`Sign-in endpoint: https://${host}/sso`);
  await expect(notice).toContainText('Sign-out endpoint: none (cleared)');
  await expect(notice).toContainText(`Entity ID: https://${host}/entity`);
  await expect(notice).toContainText('Signing certificates: 1');
  await expect(name).toHaveValue('');
  await expect(page.getByLabel('Sign-out endpoint')).toHaveValue('');
  await notice.scrollIntoViewIfNeeded();
  const screenshots = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');
  await page.screenshot({ path: resolve(screenshots, 'sso-metadata-imported.png') });

  await page.getByRole('button', { name: /^Save/ }).click();
  await expect(page.getByText('The SSO setting was saved.')).toBeVisible();
  // Saved without a name: the server derives it from the imported sign-in endpoint, not the old one.
  await expect(page.getByLabel('Identity provider name')).toHaveValue(host);
  await expect(page.getByLabel('Sign-in endpoint')).toHaveValue(`https://${host}/sso`);
});
