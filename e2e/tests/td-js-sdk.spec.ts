import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, BASE_URL, PORT } from '../env';

/**
 * td-js-sdk 4.4.3 (npm, unmodified) in Chromium on a page of another origin than the API, calling every
 * method the SDK has. The SDK hard-codes https for its global id, server-side cookie and personalization
 * calls, so the page and the API are served over TLS here: a page server, and a TLS front that passes bytes
 * to the test server (both on localhost: same site, other origins, as a site and its CNAME'd collector are).
 */

const DB = 'sdk_e2e';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sdkFile = createRequire(import.meta.url).resolve('td-js-sdk/dist/td.js');

let dir = '';
let pages: Server;
let front: TlsServer;
let pagePort = 0;
let apiPort = 0;
let masterKey = '';
let writeKey = '';

const listening = (server: Server | TlsServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

test.use({ ignoreHTTPSErrors: true });

test.beforeAll(async ({ request }) => {
  // `td account`'s route gives the master key for the administrator's e-mail and password.
  const auth = await request.post(`${BASE_URL}/v3/user/authenticate`, {
    form: { user: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(auth.status()).toBe(200);
  masterKey = ((await auth.json()) as { apikey: string }).apikey;
  const headers = { authorization: `TD1 ${masterKey}` };
  const me = (await (await request.get(`${BASE_URL}/v3/user/show`, { headers })).json()) as { name: string };
  const key = await request.post(`${BASE_URL}/v3/user/apikey/add/${encodeURIComponent(me.name)}`, {
    headers,
    form: { type: 'write-only' },
  });
  writeKey = ((await key.json()) as { apikey: string }).apikey;
  expect([200, 409]).toContain((await request.post(`${BASE_URL}/v3/database/create/${DB}`, { headers })).status());

  dir = mkdtempSync(join(tmpdir(), 'svc-sdk-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'],
      ...['-addext', 'subjectAltName=DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    ],
    { stdio: 'ignore' },
  );
  const tls = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  const sdk = readFileSync(sdkFile);
  pages = createHttpsServer(tls, (req, res) => {
    if (req.url?.startsWith('/td.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
    } else {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Shop</title><button id="buy">Buy</button><script src="/td.js"></script>');
    }
  });
  pagePort = await listening(pages);
  front = createTlsServer(tls, (socket) => {
    const upstream = connect(PORT, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
  });
  apiPort = await listening(front);
});

test.afterAll(async () => {
  await new Promise((resolve) => pages?.close(resolve));
  await new Promise((resolve) => front?.close(resolve));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Opens the shop page (with UTM parameters) and makes `window.td`, as a site's snippet would. */
async function openShop(page: Page) {
  await page.goto(`https://localhost:${pagePort}/?utm_source=e2e&utm_campaign=launch`);
  await page.evaluate(
    ({ db, key, api }) => {
      const w = window as unknown as Record<string, unknown>;
      const Treasure = w.Treasure as new (o: object) => unknown;
      w.td = new Treasure({
        database: db,
        writeKey: key,
        host: `localhost:${api}`,
        endpoint: `https://localhost:${api}/`,
        startInSignedMode: true,
        useServerSideCookie: true,
        sscServer: `localhost:${api}`,
        sscDomain: 'localhost',
        cdpHost: `localhost:${api}`,
        logging: false,
      });
    },
    { db: DB, key: writeKey, api: apiPort },
  );
}

/**
 * Calls `td[method](...before, success, error, ...after)` in the page; resolves with which callback ran and
 * its value (most methods take their callbacks last; fetchGlobalID, fetchServerCookie and saveConsents first).
 */
function callback(page: Page, method: string, before: unknown[] = [], after: unknown[] = []) {
  return page.evaluate(
    ({ method, before, after }) =>
      new Promise<{ ok: boolean; value: unknown }>((resolve) => {
        const td = (window as unknown as { td: Record<string, (...a: unknown[]) => void> }).td;
        td[method]?.(
          ...before,
          (value: unknown) => resolve({ ok: true, value: value ?? null }),
          (error: unknown) => resolve({ ok: false, value: String((error as Error)?.message ?? error) }),
          ...after,
        );
      }),
    { method, before, after },
  );
}

/** Calls a method that returns its answer. */
const direct = (page: Page, method: string, args: unknown[] = []) =>
  page.evaluate(
    ({ method, args }) =>
      (window as unknown as { td: Record<string, (...a: unknown[]) => unknown> }).td[method]?.(...args),
    { method, args },
  );

async function rows(request: APIRequestContext, table: string): Promise<Record<string, unknown>[]> {
  const res = await request.get(`${BASE_URL}/v3/table/tail/${DB}/${table}?format=json&count=100`, {
    headers: { authorization: `TD1 ${masterKey}` },
  });
  if (res.status() === 404) return [];
  const text = (await res.text()).trim();
  return text ? text.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

test('records: set, get, addRecord, trackEvent, trackPageview, with td_ip and td_global_id filled by the server', async ({
  page,
  request,
}) => {
  await openShop(page);
  // The SDK's documented way to collect the address and the global id: placeholders in the globals.
  await direct(page, 'set', ['$global', { td_ip: 'td_ip', td_global_id: 'td_global_id', shop: 'e2e' }]);
  await direct(page, 'set', ['events', 'channel', 'web']);
  expect(await direct(page, 'get', ['events'])).toEqual({ channel: 'web' });
  expect(await direct(page, 'get', [])).toMatchObject({ shop: 'e2e', utm_source: 'e2e', utm_campaign: 'launch' });
  expect(await direct(page, 'isGlobalIdEnabled')).toBe(true);
  expect(await direct(page, 'applyProperties', ['events', { a: 1 }])).toMatchObject({
    a: 1,
    channel: 'web',
    shop: 'e2e',
  });
  const values = (await direct(page, 'getTrackValues')) as Record<string, unknown>;
  expect(values.td_client_id).toMatch(UUID);

  expect(await callback(page, 'addRecord', ['events', { kind: 'added', ip: 'td_ip', gid: 'td_global_id' }])).toEqual({
    ok: true,
    value: expect.anything(),
  });
  expect((await callback(page, 'trackEvent', ['events', { kind: 'tracked' }])).ok).toBe(true);
  expect((await callback(page, 'trackPageview', ['pageviews'])).ok).toBe(true);

  const events = await rows(request, 'events');
  const added = events.find((r) => r.kind === 'added') as Record<string, unknown>;
  const tracked = events.find((r) => r.kind === 'tracked') as Record<string, unknown>;
  expect(added).toMatchObject({ channel: 'web', shop: 'e2e', utm_source: 'e2e' });
  // The TLS front reaches the server from loopback: that is the caller's address here.
  expect(String(added.ip)).toMatch(/127\.0\.0\.1$/);
  expect(added.gid).toMatch(UUID);
  expect(added.td_global_id).toBe(added.gid);
  expect(tracked).toMatchObject({ td_client_id: values.td_client_id, td_global_id: added.gid, td_title: 'Shop' });
  expect(String(tracked.td_ip)).toMatch(/127\.0\.0\.1$/);
  const views = await rows(request, 'pageviews');
  expect(views).toHaveLength(1);
  expect(views[0]).toMatchObject({ td_url: expect.stringContaining(`localhost:${pagePort}`), td_global_id: added.gid });

  // fetchGlobalID answers the id the placeholders got; removeCachedGlobalID forgets the page's copy.
  const fetched = await callback(page, 'fetchGlobalID', []);
  expect(fetched).toEqual({ ok: true, value: added.gid });
  await direct(page, 'removeCachedGlobalID');
  expect(await callback(page, 'fetchGlobalID', [], [true])).toEqual({ ok: true, value: added.gid });
});

test('modes and blocking: setAnonymousMode, setSignedMode, inSignedMode, blockEvents, unblockEvents, areEventsBlocked, resetUUID, getCookie', async ({
  page,
  request,
}) => {
  await openShop(page);
  await direct(page, 'setAnonymousMode');
  expect(await direct(page, 'inSignedMode')).toBe(false);
  expect((await callback(page, 'trackEvent', ['modes', { kind: 'anonymous' }])).ok).toBe(true);
  await direct(page, 'setSignedMode');
  expect(await direct(page, 'inSignedMode')).toBe(true);
  await direct(page, 'blockEvents');
  expect(await direct(page, 'areEventsBlocked')).toBe(true);
  await direct(page, 'addRecord', ['modes', { kind: 'blocked' }]);
  await direct(page, 'unblockEvents');
  expect(await direct(page, 'areEventsBlocked')).toBe(false);
  const before = (await direct(page, 'getTrackValues')) as { td_client_id: string };
  await direct(page, 'resetUUID');
  const after = (await direct(page, 'getTrackValues')) as { td_client_id: string };
  expect(after.td_client_id).not.toBe(before.td_client_id);
  expect(await direct(page, 'getCookie', ['_td'])).toBe(after.td_client_id);
  expect((await callback(page, 'trackEvent', ['modes', { kind: 'signed' }])).ok).toBe(true);

  const modes = await rows(request, 'modes');
  expect(modes.map((r) => r.kind).sort()).toEqual(['anonymous', 'signed']);
  const anonymous = modes.find((r) => r.kind === 'anonymous') as Record<string, unknown>;
  expect(anonymous).not.toHaveProperty('td_ip');
  expect(anonymous).not.toHaveProperty('td_client_id');
  expect(modes.find((r) => r.kind === 'signed')).toMatchObject({ td_client_id: after.td_client_id });
});

test('trackClicks, consents (addConsentRecord, addContext, addConsents, updateConsent, updateContext, saveConsents, saveContexts and the getters), collectTags', async ({
  page,
  request,
}) => {
  await openShop(page);
  await direct(page, 'trackClicks', [{ tableName: 'clicks' }]);
  await page.getByRole('button', { name: 'Buy' }).click();
  await expect.poll(async () => (await rows(request, 'clicks')).map((r) => [r.tag, r.id])).toEqual([['button', 'buy']]);

  expect((await callback(page, 'addConsentRecord', ['consent_log', { purpose: 'direct', status: 'given' }])).ok).toBe(
    true,
  );
  const contextId = (await direct(page, 'addContext', [
    { brand: 'Shop', domain_name: 'shop.example', collection_type: 'banner', collection_point_id: 'home' },
  ])) as string;
  expect(contextId).toMatch(UUID);
  await direct(page, 'addConsents', [
    {
      marketing: { description: 'Offers by e-mail', datatype: 'email', status: 'given', context_id: contextId },
      analytics: {
        description: 'Visits',
        datatype: 'behaviour',
        status: 'refused',
        expiry_date: '2099-01-01',
        context_id: contextId,
      },
    },
  ]);
  await direct(page, 'updateConsent', [contextId, { analytics: { status: 'given' } }]);
  await direct(page, 'updateContext', [contextId, { brand: 'Shop 2' }]);
  const consents = (await direct(page, 'getConsents')) as Record<string, unknown>[];
  expect(consents.map((c) => [c.purpose, c.status]).sort()).toEqual([
    ['analytics', 'given'],
    ['marketing', 'given'],
  ]);
  expect((await direct(page, 'getContexts')) as unknown[]).toEqual([expect.objectContaining({ brand: 'Shop 2' })]);
  expect(await direct(page, 'getConsentExpiryDate', [contextId, 'analytics'])).toEqual(expect.any(Number));
  expect(await direct(page, 'getExpiredConsents')).toEqual([]);
  expect((await callback(page, 'saveConsents')).ok).toBe(true);
  expect((await callback(page, 'saveContexts')).ok).toBe(true);
  const saved = await rows(request, 'td_cm_consent');
  // Only the updated consent is sent after updateConsent.
  expect(saved.map((r) => [r.purpose, r.status])).toEqual([['analytics', 'given']]);
  expect(await rows(request, 'td_cm_context')).toEqual([
    expect.objectContaining({ brand: 'Shop 2', context_id: contextId }),
  ]);
  expect((await rows(request, 'consent_log'))[0]).toMatchObject({ purpose: 'direct', status: 'given' });

  // A tag another vendor's script left on the site.
  await page.context().addCookies([{ name: '_fbp', value: 'fb.1.123', url: `https://localhost:${pagePort}` }]);
  await direct(page, 'collectTags', [{ vendors: ['meta'] }]);
  expect(await direct(page, 'get', [])).toMatchObject({ _fbp: 'fb.1.123' });
});

test('fetchServerCookie and removeServerCookie; fetchUserSegments and fetchPersonalization get a clear 422', async ({
  page,
}) => {
  await openShop(page);
  const ssc = await callback(page, 'fetchServerCookie', [], [true]);
  expect(ssc.ok).toBe(true);
  expect(ssc.value).toMatch(UUID);
  expect(await direct(page, 'getCookie', ['_td_ssc_id'])).toBe(ssc.value);
  expect(await callback(page, 'fetchServerCookie', [])).toEqual(ssc);
  await direct(page, 'removeServerCookie');

  const segmentsAnswer = page.waitForResponse((r) => r.url().includes('/cdp/lookup/collect/segments'));
  const segments = await callback(page, 'fetchUserSegments', [{ audienceToken: 'token', keys: { td_client_id: 'x' } }]);
  expect(segments.ok).toBe(false);
  const segmentsResponse = await segmentsAnswer;
  expect(segmentsResponse.status()).toBe(422);
  expect(((await segmentsResponse.json()) as { message: string }).message).toMatch(/not offered by this server/);

  const personalizationAnswer = page.waitForResponse((r) => r.url().includes(`/public/${DB}/events`));
  const personalization = await callback(page, 'fetchPersonalization', [
    { endpoint: `localhost:${apiPort}`, database: DB, table: 'events', token: 'tok' },
    { page: '/' },
  ]);
  expect(personalization).toEqual({ ok: false, value: 'Unprocessable Entity' });
  expect((await personalizationAnswer).status()).toBe(422);
});
