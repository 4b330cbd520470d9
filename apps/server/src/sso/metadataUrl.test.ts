import type { SsoSetting } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changingDns } from '../testing/changingDns';
import { createHarness, type Harness } from '../testing/harness';
import { readMetadataUrl } from './metadataFetch';
import { idpMetadataXml, MetadataServer } from './testing/metadataServer';
import { createSsoUser, lastAudit, postToAcs, startLogin } from './testing/ssoFlow';
import { TestIdp } from './testing/testIdp';

/**
 * IdP metadata by URL against a real local HTTP server: the setting is filled from it, refreshed on the
 * schedule and by "Refresh now", and a certificate rollover is trusted, shown and finished, with real
 * SAML signatures. Private addresses are refused by the one address policy.
 */

const PATH = '/v3/account/sso_setting';
const ENTITY = 'https://idp.example.test/entity';
const ALICE_ID = 'alice-idp-id';
const HOUR = 3_600_000;
const LOOPBACK_ALLOWED = { allowPrivateAddresses: true, allowWarehouseLoopback: false };

let h: Harness;
let server: MetadataServer;
let oldIdp: TestIdp;
let newIdp: TestIdp;

beforeEach(async () => {
  h = await createHarness({ outbound: LOOPBACK_ALLOWED });
  // Assertions and certificates carry real timestamps; the server's clock must agree with them.
  h.clock.set(Date.now());
  server = await MetadataServer.start();
  const signInEndpoint = `${server.origin}/sso`;
  oldIdp = await TestIdp.create({ entityId: ENTITY, signInEndpoint, cert: { commonName: 'Old IdP key' } });
  newIdp = await TestIdp.create({ entityId: ENTITY, signInEndpoint, cert: { commonName: 'New IdP key' } });
});
afterEach(async () => {
  await server.close();
  await h.close();
});

const serveMetadata = (...idps: TestIdp[]) =>
  server.serve('/metadata', {
    body: idpMetadataXml(
      ENTITY,
      `${server.origin}/sso`,
      idps.map((i) => i.keys.certPem),
    ),
  });

async function settingOf(res: Response): Promise<SsoSetting> {
  expect(res.status).toBe(200);
  return ((await res.json()) as { sso_setting: SsoSetting }).sso_setting;
}

const follow = (url: string, key?: string) =>
  h.call('POST', `${PATH}/metadata`, { json: { metadata_url: url }, ...(key ? { key } : {}) });
const current = async () => settingOf(await h.call('GET', PATH));

/** The message of an error answer of this status. */
const errorOf = async (res: Response, status: number) => {
  const body = (await res.json()) as { message?: unknown };
  expect([res.status, typeof body.message]).toEqual([status, 'string']);
  return body.message as string;
};

/** A full SP-initiated sign-in whose response `signer` signs; the consumer's status. */
async function signInWith(signer: TestIdp): Promise<number> {
  const req = await startLogin(h);
  const response = await signer.respond({
    nameId: ALICE_ID,
    inResponseTo: req.id,
    acsUrl: req.acsUrl,
    audience: req.issuer,
  });
  return (await postToAcs(h, req.acsUrl, response, req.relayState)).status;
}

describe('IdP metadata by URL', () => {
  it('fills the setting from the metadata and signs in with its certificate', async () => {
    const url = serveMetadata(oldIdp);
    const s = await settingOf(await follow(url));
    expect(s).toMatchObject({
      sign_in_endpoint: `${server.origin}/sso`,
      idp_entity_id: ENTITY,
      identity_provider_name: '127.0.0.1',
      metadata: { url, error: null, refreshed_at: s.updated_at, checked_at: s.updated_at },
    });
    expect(s.certificates.map((c) => [c.subject, c.rollover])).toEqual([['CN=Old IdP key, O=Tests', null]]);
    expect(s.certificates[0]?.first_seen_at).toBe(s.updated_at);
    expect(Date.parse(s.metadata?.next_refresh_at ?? '') - Date.parse(s.updated_at)).toBe(24 * HOUR);
    expect(await lastAudit(h)).toMatchObject({ action: 'sso_setting.create', outcome: 'success' });

    await createSsoUser(h, 'alice@first.test', ALICE_ID);
    expect(await signInWith(oldIdp)).toBe(303);
    expect(await signInWith(newIdp)).toBe(403);
  });

  it('trusts both certificates during a rollover, shows which is new, and drops the old one when it leaves', async () => {
    const followedAt = h.clock.now().getTime();
    await settingOf(await follow(serveMetadata(oldIdp)));
    await createSsoUser(h, 'alice@first.test', ALICE_ID);

    // The identity provider publishes its next key beside the current one; the daily schedule fetches it.
    serveMetadata(oldIdp, newIdp);
    h.clock.set(followedAt + 24 * HOUR - 1000);
    await h.app.services.bulkLoads.tick();
    expect((await current()).certificates).toHaveLength(1);
    h.clock.set(followedAt + 24 * HOUR);
    await h.app.services.bulkLoads.tick();
    const rolling = await current();
    expect(rolling.certificates.map((c) => [c.subject, c.rollover, c.first_seen_at])).toEqual([
      ['CN=Old IdP key, O=Tests', 'old', new Date(followedAt).toISOString()],
      ['CN=New IdP key, O=Tests', 'new', new Date(followedAt + 24 * HOUR).toISOString()],
    ]);
    expect(await lastAudit(h)).toMatchObject({ action: 'sso_setting.metadata_refresh', outcome: 'success' });
    // Assertions are signed at the wall clock's time; the server's clock goes back to agree with them.
    h.clock.set(Date.now());
    expect(await signInWith(oldIdp)).toBe(303);
    expect(await signInWith(newIdp)).toBe(303);

    // The old key leaves the metadata; "Refresh now" drops it.
    serveMetadata(newIdp);
    const done = await settingOf(await h.call('POST', `${PATH}/metadata/refresh`));
    expect(done.certificates.map((c) => [c.subject, c.rollover])).toEqual([['CN=New IdP key, O=Tests', null]]);
    const audit = await h.call('GET', '/v3/account/audit_log?action=sso_setting.metadata_refresh');
    const events = ((await audit.json()) as { events: { actor: string; details: Record<string, unknown> }[] }).events;
    expect(events.map((e) => e.actor).sort()).toEqual([h.admin.email, 'scheduled metadata refresh'].sort());
    const byAdmin = events.find((e) => e.actor === h.admin.email);
    expect(byAdmin?.details).toMatchObject({
      certificates_added: [],
      certificates_removed: [{ subject: 'CN=Old IdP key, O=Tests' }],
    });
    expect(await signInWith(oldIdp)).toBe(403);
    expect(await signInWith(newIdp)).toBe(303);
  });

  it('is fetched by one node when two tick at the due time', async () => {
    const followedAt = h.clock.now().getTime();
    await settingOf(await follow(serveMetadata(oldIdp)));
    serveMetadata(oldIdp, newIdp);
    const other = await h.secondNode();
    try {
      h.clock.set(followedAt + 24 * HOUR);
      await Promise.all([h.app.services.bulkLoads.tick(), other.app.services.bulkLoads.tick()]);
      // One fetch when the setting was followed, one by the schedule.
      expect(server.hits.get('/metadata')).toBe(2);
      expect((await current()).certificates).toHaveLength(2);
      const audit = await h.call('GET', '/v3/account/audit_log?action=sso_setting.metadata_refresh');
      expect(((await audit.json()) as { events: unknown[] }).events).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('keeps the last good setting when a refresh fails, records why, and retries within the hour', async () => {
    const url = serveMetadata(oldIdp);
    const before = await settingOf(await follow(url));
    server.serve('/metadata', { status: 503, body: 'down for maintenance' });
    h.clock.set(h.clock.now().getTime() + 5 * 60_000);
    const message = await errorOf(await h.call('POST', `${PATH}/metadata/refresh`), 422);
    expect(message).toBe(
      `The metadata URL at ${server.origin} answered HTTP 503; check the address in the identity provider's settings.`,
    );
    const after = await current();
    expect(after).toMatchObject({
      cert: before.cert,
      sign_in_endpoint: before.sign_in_endpoint,
      updated_at: before.updated_at,
      metadata: { url, error: message, refreshed_at: before.updated_at, checked_at: h.clock.now().toISOString() },
    });
    expect(Date.parse(after.metadata?.next_refresh_at ?? '') - h.clock.now().getTime()).toBe(HOUR);

    // The identity provider is back: the schedule's retry an hour later clears the error.
    serveMetadata(oldIdp, newIdp);
    const hits = server.hits.get('/metadata');
    h.clock.set(h.clock.now().getTime() + HOUR);
    await h.app.services.bulkLoads.tick();
    expect(server.hits.get('/metadata')).toBe((hits ?? 0) + 1);
    const healed = await current();
    expect(healed.metadata).toMatchObject({ error: null, refreshed_at: h.clock.now().toISOString() });
    expect(healed.certificates).toHaveLength(2);
  });

  it('answers what is wrong with the metadata and leaves the setting unchanged', async () => {
    const cases: [string, { status?: number; body?: string; headers?: Record<string, string> }, RegExp][] = [
      ['/html', { body: '<html><body>Sign in</body>' }, /did not answer with XML|holds no identity provider/],
      [
        '/sp',
        { body: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"/>' },
        /no identity provider \(IDPSSODescriptor\)/,
      ],
      ['/doctype', { body: '<!DOCTYPE x [<!ENTITY a "b">]><x/>' }, /document type declaration/],
      ['/big', { body: 'x'.repeat(1024 * 1024 + 1) }, /larger than 1 MiB/],
      ['/nokeys', { body: idpMetadataXml(ENTITY, 'https://idp.example.test/sso', []) }, /no signing certificate/],
      ['/gone', { status: 404 }, /answered HTTP 404/],
      ['/loop', { status: 302, headers: { location: '/loop' } }, /redirected more than 3 times/],
    ];
    for (const [path, answer, expected] of cases) {
      const message = await errorOf(await follow(server.serve(path, answer)), 422);
      expect(message, path).toMatch(expected);
    }
    expect((await h.call('GET', PATH)).status).toBe(404);
  });

  it('gives up on an identity provider that does not answer in time', async () => {
    const url = server.serve('/stuck', { hang: true });
    const fetching = readMetadataUrl(url, () => new Date(), { switches: LOOPBACK_ALLOWED, timeoutMs: 200 });
    await expect(fetching).rejects.toMatchObject({
      status: 422,
      message: `The metadata URL at ${server.origin} did not answer within 0.2 seconds.`,
    });
  });

  it('follows a redirect to the metadata and refuses one to a reserved address', async () => {
    const target = serveMetadata(oldIdp);
    const moved = server.serve('/moved', { status: 301, headers: { location: target } });
    expect((await settingOf(await follow(moved))).metadata?.url).toBe(moved);
    const sneaky = server.serve('/sneaky', { status: 302, headers: { location: 'http://169.254.169.254/latest' } });
    const message = await errorOf(await follow(sneaky), 400);
    expect(message).toMatch(/^The metadata URL redirected to http:\/\/169\.254\.169\.254: .*link-local or reserved/);
    expect((await current()).metadata?.url).toBe(moved);
  });

  it('refuses bad URLs, members, and refreshing a setting that follows no URL', async () => {
    for (const [url, expected] of [
      ['not a url', /is not a URL/],
      ['', /must be the https address/],
      ['file:///etc/passwd', /may not use "file:"/],
      ['ftp://idp.example.test/md', /over HTTPS; "ftp:" URLs are not supported/],
      ['https://user:secret@idp.example.test/md', /must not contain a user name or password/],
    ] as const) {
      expect(await errorOf(await follow(url), 400), url).toMatch(expected);
    }
    expect(await errorOf(await h.call('POST', `${PATH}/metadata/refresh`), 404)).toBeTruthy();
    await h.call('POST', PATH, {
      json: { sso_setting: { sign_in_endpoint: 'https://idp.example.test/sso', cert: oldIdp.keys.certPem } },
    });
    expect(await errorOf(await h.call('POST', `${PATH}/metadata/refresh`), 409)).toMatch(
      /does not follow a metadata URL/,
    );
    await h.call('POST', '/v3/user/add/bob', { json: { email: 'bob@first.test', password: 'a long password 1' } });
    const key = ((await (await h.call('POST', '/v3/user/apikey/add/bob@first.test')).json()) as { apikey: string })
      .apikey;
    expect((await follow(serveMetadata(oldIdp), key)).status).toBe(403);
  });

  it('stops following the URL when the setting is typed in full, or when asked, and keeps the setting', async () => {
    await settingOf(await follow(serveMetadata(oldIdp)));
    const renamed = await settingOf(
      await h.call('PUT', PATH, { json: { sso_setting: { identity_provider_name: 'Corporate IdP' } } }),
    );
    expect(renamed.metadata).not.toBeNull();
    // A name typed by hand stays across refreshes.
    serveMetadata(oldIdp, newIdp);
    const refreshed = await settingOf(await h.call('POST', `${PATH}/metadata/refresh`));
    expect(refreshed).toMatchObject({ identity_provider_name: 'Corporate IdP' });
    const stopped = await settingOf(await h.call('DELETE', `${PATH}/metadata`));
    expect(stopped).toMatchObject({ metadata: null, cert: refreshed.cert });
    await settingOf(await follow(serveMetadata(oldIdp)));
    const typed = await settingOf(
      await h.call('POST', PATH, {
        json: { sso_setting: { sign_in_endpoint: 'https://idp.example.test/sso', cert: newIdp.keys.certPem } },
      }),
    );
    expect(typed.metadata).toBeNull();
  });
});

describe('IdP metadata by URL, strict address policy', () => {
  it('refuses loopback and private hosts unless the operator allows them', async () => {
    const strict = await createHarness();
    try {
      const url = serveMetadata(oldIdp);
      for (const target of [url, 'https://10.1.2.3/metadata', 'https://[::1]/metadata']) {
        const res = await strict.call('POST', `${PATH}/metadata`, { json: { metadata_url: target } });
        expect(res.status, target).toBe(400);
        expect(((await res.json()) as { message: string }).message).toMatch(
          /must use HTTPS|loopback or private address.*SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES=1/,
        );
      }
      expect(server.hits.get('/metadata')).toBeUndefined();
      expect((await strict.call('GET', PATH)).status).toBe(404);
    } finally {
      await strict.close();
    }
  });

  it('refuses a name that points at loopback by the time it connects, though it was public when checked', async () => {
    const url = serveMetadata(oldIdp);
    const { asked, resolve } = changingDns('93.184.216.34', '127.0.0.1');
    const rebinding = url.replace(/^http:\/\/127\.0\.0\.1/, 'https://idp.rebind.test');
    const switches = { allowPrivateAddresses: false, allowWarehouseLoopback: false, resolve };
    await expect(readMetadataUrl(rebinding, () => new Date(), { switches })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^The metadata URL host "idp\.rebind\.test" is a loopback or private address/),
    });
    expect(asked).toEqual(['idp.rebind.test', 'idp.rebind.test']);
    expect(server.hits.get('/metadata')).toBeUndefined();
  });
});
