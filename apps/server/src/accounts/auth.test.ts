import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VERIFIED_KEY_MS } from '../platform/apiKeys';
import { one, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';

describe('API key authentication', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const withHeader = (authorization: string | null) =>
    h.call('GET', '/v3/user/show', { key: null, headers: authorization === null ? {} : { authorization } });

  it('gives the same 401 body to every kind of bad header', async () => {
    const revoked = (
      (await (await h.call('POST', `/v3/user/apikey/add/${h.admin.email}`)).json()) as { apikey: string }
    ).apikey;
    await h.call('POST', `/v3/user/apikey/remove/${h.admin.email}`, { form: { apikey: revoked } });
    const [id] = h.admin.masterKey.split('/');
    const variants: (string | null)[] = [
      null,
      'Bearer x',
      'SVC1',
      'SVC1 ',
      'SVC1 not-a-key',
      'TD1 not-a-key',
      'TD2 x',
      `SVC1 ${id}/${'a'.repeat(40)}`,
      `SVC1 ${revoked}`,
      `SVC1 999999/${'b'.repeat(40)}`,
    ];
    const bodies: unknown[] = [];
    for (const header of variants) {
      const res = await withHeader(header);
      expect(res.status, String(header)).toBe(401);
      bodies.push(await res.json());
    }
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(bodies[0]).toMatchObject({ error: 'Unauthorized', severity: 'error', status_code: 401 });
  });

  it('accepts the scheme word in any case, and TD1 as its alias', async () => {
    for (const scheme of ['svc1', 'Svc1', 'SVC1', 'TD1', 'td1']) {
      expect((await withHeader(`${scheme} ${h.admin.masterKey}`)).status, scheme).toBe(200);
    }
  });

  it('refuses a valid key in a header off the grammar: one space between scheme and key, no tab', async () => {
    const key = h.admin.masterKey;
    for (const header of [`SVC1  ${key}`, `SVC1\t${key}`, `TD1 \t${key}`, `SVC1 ${key}\t/`, `SVC1 ${key} x`]) {
      const res = await withHeader(header);
      expect(res.status, JSON.stringify(header)).toBe(401);
    }
    // Postbacks and the records API read the header through the same rule.
    await h.call('POST', '/v3/database/create/web');
    const postback = await h.app.request('/postback/v3/event/web/clicks', {
      method: 'POST',
      headers: { authorization: `SVC1  ${h.admin.writeOnlyKey}`, 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(postback.status).toBe(401);
  });

  it('records when a key was last used', async () => {
    const before = await one(
      h.deps.storage.db,
      sql`SELECT last_used_at FROM api_keys WHERE id = ${Number(h.admin.masterKey.split('/')[0])}`,
    );
    expect(before).toEqual({ last_used_at: null });
    h.clock.advance(5000);
    await h.call('GET', '/v3/user/show');
    const after = await one(
      h.deps.storage.db,
      sql`SELECT last_used_at FROM api_keys WHERE id = ${Number(h.admin.masterKey.split('/')[0])}`,
    );
    expect(after).toEqual({ last_used_at: h.clock.now().getTime() });
  });

  it("writes a busy key's last use at most once a minute, not on every request", async () => {
    const lastUsed = async () =>
      (
        (await one<{ last_used_at: number }>(
          h.deps.storage.db,
          sql`SELECT last_used_at FROM api_keys WHERE id = ${Number(h.admin.masterKey.split('/')[0])}`,
        )) as { last_used_at: number }
      ).last_used_at;
    await h.call('GET', '/v3/user/show');
    const first = await lastUsed();
    h.clock.advance(30_000);
    await h.call('GET', '/v3/user/show');
    expect(await lastUsed()).toBe(first);
    h.clock.advance(30_000);
    await h.call('GET', '/v3/user/show');
    expect(await lastUsed()).toBe(first + 60_000);
  });

  describe('keys verified lately', () => {
    const newKey = async (user: string) =>
      ((await (await h.call('POST', `/v3/user/apikey/add/${user}`)).json()) as { apikey: string }).apikey;
    const show = (key: string) => h.call('GET', '/v3/user/show', { key });

    it('refuses a key revoked on this node at once, right after it was used', async () => {
      const key = await newKey(h.admin.email);
      expect((await show(key)).status).toBe(200);
      await h.call('POST', `/v3/user/apikey/remove/${h.admin.email}`, { form: { apikey: key } });
      expect((await show(key)).status).toBe(401);
    });

    it("refuses a removed user's key at once, right after it was used", async () => {
      await h.call('POST', '/v3/user/add/ann', { form: { email: 'ann@first.test', password: 'long enough pw' } });
      const key = await newKey('ann');
      expect((await show(key)).status).toBe(200);
      expect((await h.call('POST', '/v3/user/remove/ann')).status).toBe(200);
      expect((await show(key)).status).toBe(401);
    });

    it('trusts only the exact key it verified: a wrong secret for the same id stays refused', async () => {
      const key = await newKey(h.admin.email);
      expect((await show(key)).status).toBe(200);
      const [id, secret] = key.split('/') as [string, string];
      const wrong = `${id}/${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
      expect((await show(wrong)).status).toBe(401);
      expect((await show(key)).status).toBe(200);
    });

    it('another node honours a revocation within VERIFIED_KEY_MS', async () => {
      const key = await newKey(h.admin.email);
      expect((await show(key)).status).toBe(200);
      const other = await h.secondNode();
      try {
        const revoked = await other.call('POST', `/v3/user/apikey/remove/${h.admin.email}`, { form: { apikey: key } });
        expect(revoked.status).toBe(200);
        expect((await other.call('GET', '/v3/user/show', { key })).status).toBe(401);
        // This node verified the key a moment ago and trusts it for at most VERIFIED_KEY_MS more.
        h.clock.advance(VERIFIED_KEY_MS - 1);
        expect((await show(key)).status).toBe(200);
        h.clock.advance(1);
        expect((await show(key)).status).toBe(401);
      } finally {
        await other.close();
      }
    });
  });
});
