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

  it('answers 429 with Retry-After after too many bad keys from one address, to every key from it', async () => {
    for (let i = 0; i < BAD_KEYS; i++) expect((await from('203.0.113.7', wrong(i))).status).toBe(401);
    const throttled = await from('203.0.113.7', wrong(999));
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await throttled.json()).toMatchObject({ error: 'Too Many Requests', status_code: 429 });
    // While throttled even the right key gets no answer about itself.
    expect((await from('203.0.113.7', h.admin.masterKey)).status).toBe(429);
    // The ingestion routes share the throttle.
    const postback = await h.app.request(
      '/postback/v3/event/web_events/t',
      { method: 'POST', headers: { 'x-svc-write-key': wrong(1), 'content-type': 'application/json' }, body: '{}' },
      { incoming: { socket: { remoteAddress: '203.0.113.7' } } },
    );
    expect(postback.status).toBe(429);
    // Other addresses are not affected.
    expect((await from('198.51.100.4', h.admin.masterKey)).status).toBe(200);
    // When the window has passed, the address may try again.
    h.clock.advance(WINDOW_MS);
    expect((await from('203.0.113.7', h.admin.masterKey)).status).toBe(200);
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
