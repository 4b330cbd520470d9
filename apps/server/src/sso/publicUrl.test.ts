import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config';
import { createHarness, type Harness } from '../testing/harness';
import { TestIdp } from './testing/testIdp';

/** SVC_PUBLIC_URL fixes the SAML addresses: a spoofed Host header cannot move them. */
describe('the public URL', () => {
  let h: Harness | null = null;
  afterEach(() => h?.close());

  it('sets the SAML entity ID and ACS whatever the Host header says', async () => {
    h = await createHarness({ publicUrl: 'https://cdp.example.com' });
    h.clock.set(Date.now());
    const account = h.admin.accountId;
    const idp = await TestIdp.create();
    const res = await h.call('POST', 'http://attacker.example/v3/account/sso_setting', {
      headers: { host: 'attacker.example' },
      json: { sso_setting: { sign_in_endpoint: 'https://idp.example.com/saml', cert: idp.keys.certPem } },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('attacker.example');
    const { sso_setting } = JSON.parse(text) as { sso_setting: { service_provider: Record<string, string> } };
    expect(sso_setting.service_provider).toMatchObject({
      entity_id: `https://cdp.example.com/sso/saml/metadata?account=${account}`,
      acs_url: `https://cdp.example.com/sso/saml/acs?account=${account}`,
    });
    const metadata = await h.call('GET', `http://attacker.example/sso/saml/metadata?account=${account}`, {
      key: null,
      headers: { host: 'attacker.example' },
    });
    const xml = await metadata.text();
    expect(xml).toContain(`https://cdp.example.com/sso/saml/acs?account=${account}`);
    expect(xml).not.toContain('attacker.example');
  });

  it('is read from SVC_PUBLIC_URL and checked', () => {
    expect(loadConfig({ SVC_PUBLIC_URL: 'https://cdp.example.com/' }).publicUrl).toBe('https://cdp.example.com');
    expect(loadConfig({ SVC_PUBLIC_URL: 'https://example.com/svc/' }).publicUrl).toBe('https://example.com/svc');
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(() => loadConfig({ SVC_PUBLIC_URL: 'ftp://x' })).toThrow(/SVC_PUBLIC_URL/);
    expect(() => loadConfig({ SVC_PUBLIC_URL: 'not a url' })).toThrow(/SVC_PUBLIC_URL/);
  });
});
