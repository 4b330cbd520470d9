import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
});
