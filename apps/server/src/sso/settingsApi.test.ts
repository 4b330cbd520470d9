import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { makeKeyAndCert, TestIdp } from './testing/testIdp';

let h: Harness;
let idp: TestIdp;
const DAY = 86_400_000;

beforeEach(async () => {
  h = await createHarness();
  h.clock.set(Date.now());
  idp = await TestIdp.create();
});
afterEach(() => h.close());

const PATH = '/v3/account/sso_setting';
const post = (fields: Record<string, unknown>, key?: string) =>
  h.call('POST', PATH, { json: { sso_setting: fields }, ...(key ? { key } : {}) });
const valid = () => ({ sign_in_endpoint: 'https://login.microsoftonline.com/tenant/saml2', cert: idp.keys.certPem });

async function userKey(email: string, administrator = false): Promise<string> {
  await h.call('POST', `/v3/user/add/${email.split('@')[0]}`, {
    json: { email, password: 'a long password 1', administrator },
  });
  return ((await (await h.call('POST', `/v3/user/apikey/add/${email}`)).json()) as { apikey: string }).apikey;
}

async function errorOf(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  return ((await res.json()) as { message: string }).message;
}

describe('SSO setting API', () => {
  it('answers 404 while no setting exists', async () => {
    expect((await h.call('GET', PATH)).status).toBe(404);
  });

  it('creates a setting and shows the parsed certificate and our service provider', async () => {
    const res = await post({ ...valid(), sign_out_endpoint: null, updated_at: '1999-01-01T00:00:00.000Z' });
    expect(res.status).toBe(200);
    const { sso_setting: s } = (await res.json()) as {
      sso_setting: Record<string, unknown> & { certificates: Record<string, unknown>[] };
    };
    expect(s).toMatchObject({
      identity_provider_name: 'AzureAD',
      sign_out_endpoint: null,
      strategy: 'samlp',
      warnings: [],
      service_provider: {
        entity_id: `http://localhost/sso/saml/metadata?account=${h.admin.accountId}`,
        acs_url: `http://localhost/sso/saml/acs?account=${h.admin.accountId}`,
      },
    });
    expect(s.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(s.updated_at).not.toBe('1999-01-01T00:00:00.000Z');
    expect(s.certificates[0]).toMatchObject({ subject: 'CN=Test IdP, O=Tests', key: 'RSA 2048' });
    expect(s.certificates[0]?.fingerprint_sha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect((await h.call('GET', PATH)).status).toBe(200);
  });

  it('keeps a given identity provider name and derives one from the host otherwise', async () => {
    await post({ ...valid(), identity_provider_name: 'Corporate IdP' });
    expect(await (await h.call('GET', PATH)).json()).toMatchObject({
      sso_setting: { identity_provider_name: 'Corporate IdP' },
    });
    await post({ ...valid(), sign_in_endpoint: 'https://sso.acme.example/saml' });
    expect(await (await h.call('GET', PATH)).json()).toMatchObject({
      sso_setting: { identity_provider_name: 'sso.acme.example' },
    });
  });

  it('is for administrators only', async () => {
    const key = await userKey('ann@first.test');
    expect((await h.call('GET', PATH, { key })).status).toBe(403);
    expect((await post(valid(), key)).status).toBe(403);
    expect((await h.call('GET', PATH, { key: h.admin.writeOnlyKey })).status).toBe(403);
    expect((await post(valid(), h.admin.writeOnlyKey)).status).toBe(403);
  });

  it('refuses what is not a usable certificate', async () => {
    const pkcs8 = (await makeKeyAndCert()).privateKeyPem;
    expect(await errorOf(await post({ ...valid(), cert: pkcs8 }), 400)).toContain('private key');
    expect(await errorOf(await post({ ...valid(), cert: 'hello' }), 400)).toContain('PEM certificates');
    const garbage = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';
    expect(await errorOf(await post({ ...valid(), cert: garbage }), 400)).toContain('not a valid X.509');
    const weak = await makeKeyAndCert({ bits: 1024 });
    expect(await errorOf(await post({ ...valid(), cert: weak.certPem }), 400)).toContain('at least 2048');
    const old = await makeKeyAndCert({
      notBefore: new Date(Date.now() - 30 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    expect(await errorOf(await post({ ...valid(), cert: old.certPem }), 400)).toContain('expired');
  });

  it('accepts a certificate expiring within 30 days, with a warning', async () => {
    const soon = await makeKeyAndCert({ notAfter: new Date(Date.now() + 10 * DAY) });
    const res = await post({ ...valid(), cert: soon.certPem });
    const { sso_setting } = (await res.json()) as { sso_setting: { warnings: string[] } };
    expect(sso_setting.warnings[0]).toMatch(/expires in (9|10) days/);
  });

  it('takes several certificates for a rotation, up to five', async () => {
    const next = await makeKeyAndCert({ commonName: 'Next IdP' });
    const res = await post({ ...valid(), cert: `${idp.keys.certPem}\n${next.certPem}` });
    expect(((await res.json()) as { sso_setting: { certificates: unknown[] } }).sso_setting.certificates).toHaveLength(
      2,
    );
    const six = Array.from({ length: 6 }, () => idp.keys.certPem).join('\n');
    expect(await errorOf(await post({ ...valid(), cert: six }), 400)).toContain('at most 5');
  });

  it('wants https endpoints, http only on loopback hosts', async () => {
    expect(await errorOf(await post({ ...valid(), sign_in_endpoint: 'http://idp.example/sso' }), 400)).toContain(
      'https',
    );
    expect(await errorOf(await post({ ...valid(), sign_in_endpoint: 'not a url' }), 400)).toContain('not a URL');
    expect(await errorOf(await post({ ...valid(), sign_out_endpoint: 'ftp://idp/x' }), 400)).toContain('https');
    expect((await post({ ...valid(), sign_in_endpoint: 'http://127.0.0.1:9999/sso' })).status).toBe(200);
  });

  it('accepts only the samlp strategy and needs the body wrapped in sso_setting', async () => {
    expect(await errorOf(await post({ ...valid(), strategy: 'oidc' }), 400)).toContain('samlp');
    expect(await errorOf(await h.call('POST', PATH, { json: valid() }), 400)).toContain('sso_setting');
  });

  it('updates with PUT only when a setting exists, keeping omitted fields', async () => {
    expect((await h.call('PUT', PATH, { json: { sso_setting: valid() } })).status).toBe(404);
    await post({ ...valid(), sign_out_endpoint: 'https://login.microsoftonline.com/tenant/logout' });
    const res = await h.call('PUT', PATH, { json: { sso_setting: { identity_provider_name: 'Renamed' } } });
    expect(await res.json()).toMatchObject({
      sso_setting: {
        identity_provider_name: 'Renamed',
        sign_out_endpoint: 'https://login.microsoftonline.com/tenant/logout',
      },
    });
    const cleared = await h.call('PUT', PATH, { json: { sso_setting: { sign_out_endpoint: null } } });
    expect(await cleared.json()).toMatchObject({ sso_setting: { sign_out_endpoint: null } });
  });

  it('refuses DELETE while a user has SSO enforced, and deletes otherwise', async () => {
    await post(valid());
    await h.call('POST', '/v3/user/create_with_sso/Carol', {
      json: { user_first_name: 'Carol', email: 'carol@first.test', identifier: 'carol' },
    });
    expect(await errorOf(await h.call('DELETE', PATH), 409)).toContain('carol@first.test');
    await h.call('POST', '/v3/user/disable_sso/carol@first.test', {
      json: { sso_setting: { user_email: 'carol@first.test' } },
    });
    expect((await h.call('DELETE', PATH)).status).toBe(200);
    expect((await h.call('GET', PATH)).status).toBe(404);
    expect((await h.call('DELETE', PATH)).status).toBe(404);
  });

  it('serves service-provider metadata for the account', async () => {
    const res = await h.app.request(`/sso/saml/metadata?account=${h.admin.accountId}`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain(`entityID="http://localhost/sso/saml/metadata?account=${h.admin.accountId}"`);
    expect(xml).toContain(`Location="http://localhost/sso/saml/acs?account=${h.admin.accountId}"`);
    expect((await h.app.request('/sso/saml/metadata?account=999')).status).toBe(404);
  });
});
