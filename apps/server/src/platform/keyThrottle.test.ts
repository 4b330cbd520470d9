import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { BAD_KEYS, WINDOW_MS } from './keyThrottle';

describe('throttling of bad API keys', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  /** A request from a socket peer address, as @hono/node-server's getConnInfo reads it. */
  const from = (address: string, key: string, path = '/v3/database/list', headers: Record<string, string> = {}) =>
    h.app.request(
      path,
      { method: path.startsWith('/postback') ? 'POST' : 'GET', headers: { authorization: `SVC1 ${key}`, ...headers } },
      { incoming: { socket: { remoteAddress: address } } },
    );
  const wrong = (i: number) => `${h.admin.masterKey.split('/')[0]}/${i.toString(16).padStart(40, '0')}`;

  const postback = (key: string, address: string) =>
    h.app.request(
      '/postback/v3/event/web_events/clicks',
      { method: 'POST', headers: { 'x-svc-write-key': key, 'content-type': 'application/json' }, body: '{"a":1}' },
      { incoming: { socket: { remoteAddress: address } } },
    );

  it('answers 429 with Retry-After to further bad keys after too many from one address', async () => {
    for (let i = 0; i < BAD_KEYS; i++) expect((await from('203.0.113.7', wrong(i))).status).toBe(401);
    const throttled = await from('203.0.113.7', wrong(999));
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await throttled.json()).toMatchObject({ error: 'Too Many Requests', status_code: 429 });
    // The ingestion routes share the throttle.
    expect((await postback(wrong(1), '203.0.113.7')).status).toBe(429);
    // When the window has passed, the address may try again.
    h.clock.advance(WINDOW_MS);
    expect((await from('203.0.113.7', wrong(1000))).status).toBe(401);
  });

  it("never throttles valid keys: one client's stale key behind a shared address locks nobody else out", async () => {
    await h.call('POST', '/v3/database/create/web_events');
    for (let i = 0; i < BAD_KEYS + 5; i++) await from('203.0.113.7', wrong(i));
    expect((await from('203.0.113.7', wrong(999))).status).toBe(429);
    // Master keys, write-only keys and postbacks from the same address still work at once.
    expect((await from('203.0.113.7', h.admin.masterKey)).status).toBe(200);
    expect((await postback(h.admin.writeOnlyKey, '203.0.113.7')).status).toBe(200);
    expect((await postback(h.admin.masterKey, '203.0.113.7')).status).toBe(200);
    const other = await h.newAccount('Other');
    expect((await from('203.0.113.7', other.masterKey)).status).toBe(200);
    // And the bad keys are still throttled after the good ones.
    expect((await from('203.0.113.7', wrong(1001))).status).toBe(429);
  });

  it('does not count requests without credentials or with good keys', async () => {
    for (let i = 0; i < BAD_KEYS + 5; i++) {
      expect((await from('203.0.113.8', h.admin.masterKey)).status).toBe(200);
      const none = await h.app.request(
        '/v3/database/list',
        {},
        { incoming: { socket: { remoteAddress: '203.0.113.8' } } },
      );
      expect(none.status).toBe(401);
    }
  });
});
