import { afterEach, describe, expect, it } from 'vitest';
import { trustedProxiesFromEnv } from '../platform/clientAddress';
import { loadConfig } from '../platform/config';
import { createHarness, type Harness } from '../testing/harness';

const SDK_TYPE = 'application/vnd.treasuredata.v1+json';

describe('td-js-sdk placeholders td_ip and td_global_id', () => {
  let h: Harness;
  afterEach(() => h.close());

  const start = async (trustedProxies?: string) => {
    h = await createHarness(trustedProxies ? { trustedProxies: trustedProxiesFromEnv(trustedProxies) } : {});
    await h.call('POST', '/v3/database/create/web');
  };
  /** What the SDK sends, from a socket peer `from`, to http or https. */
  const send = (event: Record<string, unknown>, from: string, headers: Record<string, string> = {}, scheme = 'http') =>
    h.app.request(
      `${scheme}://cdp.test/web/events`,
      {
        method: 'POST',
        body: JSON.stringify({ events: [{ time: 1_700_000_000, ...event }] }),
        headers: { authorization: `TD1 ${h.admin.writeOnlyKey}`, 'content-type': SDK_TYPE, ...headers },
      },
      { incoming: { socket: { remoteAddress: from } } },
    );
  const rows = async () =>
    (await (await h.call('GET', '/v3/table/tail/web/events?format=json')).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("stores the caller's address for td_ip, and ignores X-Forwarded-For without trusted proxies", async () => {
    await start();
    const res = await send({ td_ip: 'td_ip', ip: 'td_ip', note: 'td_ip is a word' }, '203.0.113.7', {
      'x-forwarded-for': '198.51.100.1',
    });
    expect(res.status).toBe(200);
    expect(await rows()).toEqual([
      { time: 1_700_000_000, td_ip: '203.0.113.7', ip: '203.0.113.7', note: 'td_ip is a word' },
    ]);
  });

  it('takes the nearest untrusted X-Forwarded-For address when the peer is a trusted proxy', async () => {
    await start('127.0.0.1,10.0.0.0/8');
    // A client-written first entry is not believed: the proxy chain appended the real one.
    expect(
      (await send({ td_ip: 'td_ip' }, '127.0.0.1', { 'x-forwarded-for': '192.0.2.66, 198.51.100.9, 10.1.2.3' })).status,
    ).toBe(200);
    // A peer that is not a trusted proxy is the caller, whatever the header says.
    expect((await send({ td_ip: 'td_ip' }, '203.0.113.8', { 'x-forwarded-for': '192.0.2.66' })).status).toBe(200);
    expect((await rows()).map((r) => r.td_ip).sort()).toEqual(['198.51.100.9', '203.0.113.8']);
  });

  it('issues a global id in a long-lived cookie and keeps it for the next request', async () => {
    await start();
    const first = await send({ td_global_id: 'td_global_id' }, '203.0.113.7');
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie') ?? '';
    const id = /^_td_global=([0-9a-f-]{36});/.exec(cookie)?.[1];
    expect(id).toBeDefined();
    expect(cookie).toMatch(/Max-Age=34560000/);
    expect(cookie).toMatch(/HttpOnly/);
    const second = await send({ td_global_id: 'td_global_id' }, '203.0.113.7', { cookie: `_td_global=${id}` });
    expect(second.status).toBe(200);
    expect((await rows()).map((r) => r.td_global_id)).toEqual([id, id]);
    // A forged cookie value is not stored: a new id is issued instead.
    const forged = await send({ td_global_id: 'td_global_id' }, '203.0.113.7', { cookie: '_td_global=<script>' });
    expect(forged.headers.get('set-cookie')).not.toContain('<script>');
    expect((await rows()).map((r) => r.td_global_id)).not.toContain('<script>');
  });

  it('marks the cookie SameSite=None; Secure over https, and sets none without the placeholder', async () => {
    await start();
    const secure = await send({ td_global_id: 'td_global_id' }, '203.0.113.7', {}, 'https');
    expect(secure.headers.get('set-cookie')).toMatch(/SameSite=None/);
    expect(secure.headers.get('set-cookie')).toMatch(/Secure/);
    const plain = await send({ a: 1 }, '203.0.113.7');
    expect(plain.headers.get('set-cookie')).toBeNull();
  });

  it('fills them on postback too', async () => {
    await start();
    const res = await h.app.request(
      '/postback/v3/event/web/events',
      {
        method: 'POST',
        body: JSON.stringify({ time: 1_700_000_000, td_ip: 'td_ip', td_global_id: 'td_global_id' }),
        headers: { 'x-svc-write-key': h.admin.writeOnlyKey, 'content-type': 'application/json' },
      },
      { incoming: { socket: { remoteAddress: '203.0.113.9' } } },
    );
    expect(res.status).toBe(200);
    const id = /^_td_global=([0-9a-f-]{36});/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    expect(await rows()).toEqual([{ time: 1_700_000_000, td_ip: '203.0.113.9', td_global_id: id }]);
  });
});

describe('SVC_TRUSTED_PROXIES', () => {
  it('refuses a malformed SVC_TRUSTED_PROXIES at start, naming it', () => {
    expect(() => loadConfig({ SVC_TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/SVC_TRUSTED_PROXIES/);
    expect(() => loadConfig({ SVC_TRUSTED_PROXIES: 'proxy.local' })).toThrow(/SVC_TRUSTED_PROXIES/);
    expect(loadConfig({ SVC_TRUSTED_PROXIES: ' 127.0.0.1 , ::1 ' }).trustedProxies?.check('::1', 'ipv6')).toBe(true);
  });
});
