import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATALOG_CACHE_MS, type DatabaseRow, findDatabase, findTable, tailRows } from '../data';
import { createHarness, type Harness } from '../testing/harness';

describe('postback', () => {
  let h: Harness;
  let database: DatabaseRow;
  beforeEach(async () => {
    h = await createHarness();
    await h.call('POST', '/v3/database/create/web_events');
    database = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'web_events')) as DatabaseRow;
  });
  afterEach(() => h.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    h.call('POST', `/postback/v3/event/${path}`, {
      key: null,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-svc-write-key': h.admin.writeOnlyKey, ...headers },
    });
  const rows = async (table: string) => {
    const t = await findTable(h.deps.storage.db, h.admin.accountId, database.id, table);
    return t ? await tailRows(h.deps, database, t, 1000) : [];
  };

  it('stores one record with a write-only key, creates the table and answers {}', async () => {
    const res = await post('web_events/signups', { email: 'a@b.c', plan: 'pro' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{}');
    // time defaults to the receive time of the injected clock.
    expect(await rows('signups')).toEqual([
      { time: Math.floor(h.clock.now().getTime() / 1000), email: 'a@b.c', plan: 'pro' },
    ]);
    const show = (await (await h.call('GET', '/v3/table/show/web_events/signups')).json()) as Record<string, unknown>;
    expect(show).toMatchObject({ count: 1, schema: '[["email","string"],["plan","string"]]' });
  });

  it('refuses mixed credentials (a write key and Authorization) with 400, writing nothing', async () => {
    for (const authorization of [`SVC1 ${h.admin.writeOnlyKey}`, `SVC1 ${h.admin.masterKey}`, 'Bearer x']) {
      const res = await post('web_events/t_mixed', { a: 1 }, { authorization });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/not both/);
    }
    expect(await rows('t_mixed')).toHaveLength(0);
  });

  it('accepts a master key, and the Authorization header instead of X-SVC-Write-Key', async () => {
    expect((await post('web_events/t_master', { a: 1 }, { 'x-svc-write-key': h.admin.masterKey })).status).toBe(200);
    const viaAuth = await h.call('POST', '/postback/v3/event/web_events/t_master', {
      json: { a: 2 },
      key: h.admin.writeOnlyKey,
    });
    expect(viaAuth.status).toBe(200);
    expect(await rows('t_master')).toHaveLength(2);
  });

  it('keeps an integer time, and refuses a time that is not an integer with 400', async () => {
    expect((await post('web_events/timed', { time: 1_700_000_000 })).status).toBe(200);
    expect(await rows('timed')).toEqual([{ time: 1_700_000_000 }]);
    for (const time of [1.5, '1700000000', 'yesterday']) {
      const res = await post('web_events/timed', { time });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('"time" must be an integer');
    }
  });

  it('stores nested values as JSON text', async () => {
    await post('web_events/nested', { cart: { items: [1, 2] }, tags: ['a'] });
    expect((await rows('nested'))[0]).toMatchObject({ cart: { items: [1, 2] }, tags: ['a'] });
    expect((await findTable(h.deps.storage.db, h.admin.accountId, database.id, 'nested'))?.schema_json).toBe(
      '[["cart","map<string,string>"],["tags","array<string>"]]',
    );
  });

  it('refuses an unknown or missing key with 401', async () => {
    expect((await post('web_events/t', { a: 1 }, { 'x-svc-write-key': `1/${'f'.repeat(40)}` })).status).toBe(401);
    const none = await h.call('POST', '/postback/v3/event/web_events/t', { key: null, json: { a: 1 } });
    expect(none.status).toBe(401);
  });

  it('answers 404 to a master key of ANOTHER account, as if the database did not exist', async () => {
    const other = await h.newAccount('Other');
    const res = await post('web_events/t', { a: 1 }, { 'x-svc-write-key': other.masterKey });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'Resource not found', status_code: 404 });
    expect(await findTable(h.deps.storage.db, h.admin.accountId, database.id, 't')).toBeNull();
  });

  it('answers 404 for a database that does not exist', async () => {
    expect((await post('no_such_db/t', { a: 1 })).status).toBe(404);
  });

  it('refuses path names with other characters with 400, and reads uppercase as lowercase', async () => {
    for (const path of [
      'web-events/t',
      `web_events/${encodeURIComponent('t"x')}`,
      `web_events/${encodeURIComponent('a b')}`,
    ]) {
      const res = await post(path, { a: 1 });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('letters, digits and underscores');
    }
    expect((await post('Web_Events/Signups', { a: 1 })).status).toBe(200);
    expect(await rows('signups')).toHaveLength(1);
  });

  it('refuses to create a table whose name breaks the creation rule', async () => {
    const res = await post(`web_events/${'t'.repeat(300)}`, { a: 1 });
    expect(res.status).toBe(400);
    expect((await post('web_events/ab', { a: 1 })).status).toBe(400);
  });

  it('refuses bodies that are not one JSON object, too deep, or too large', async () => {
    expect((await post('web_events/t', '[1,2]')).status).toBe(400);
    expect((await post('web_events/t', 'not json')).status).toBe(400);
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect((await post('web_events/t', { deep })).status).toBe(400);
    const big = await post('web_events/t', { s: 'x'.repeat(1024 * 1024) });
    expect(big.status).toBe(413);
    expect(await rows('t')).toEqual([]);
  });

  it('reads form fields as string values', async () => {
    const res = await h.call('POST', '/postback/v3/event/web_events/forms', {
      key: null,
      form: { a: '1', b: 'x' },
      headers: { 'x-svc-write-key': h.admin.writeOnlyKey },
    });
    expect(res.status).toBe(200);
    expect((await rows('forms'))[0]).toMatchObject({ a: '1', b: 'x' });
  });

  it('answers CORS preflights and echoes the origin', async () => {
    const pre = await h.call('OPTIONS', '/postback/v3/event/web_events/t', {
      key: null,
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-svc-write-key',
      },
    });
    expect(pre.status).toBe(200);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type, x-svc-write-key');
    const res = await post('web_events/t', { a: 1 }, { origin: 'https://shop.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const refused = await post('web_events/t', { a: 1 }, { origin: 'https://shop.example', 'x-svc-write-key': 'x' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  });

  it('lands 200 concurrent postbacks exactly once each, in few group commits', async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post('web_events/burst', { i, time: 1_700_000_000 + i })),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const stored = (await rows('burst')).map((r) => r.i as number);
    expect(stored).toHaveLength(200);
    expect(new Set(stored).size).toBe(200);
    expect((await findTable(h.deps.storage.db, h.admin.accountId, database.id, 'burst'))?.count).toBe(200);
  });

  it('lands a group commit of several tables, new and existing, with their counts in the catalog', async () => {
    expect((await post('web_events/known', { a: 0 })).status).toBe(200);
    const tables = ['known', 'fresh_one', 'fresh_two'];
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post(`web_events/${tables[i % 3]}`, { i, time: 1_700_000_000 + i })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(200));
    for (const [n, table] of tables.entries()) {
      const expected = Array.from({ length: 10 }, (_, k) => k * 3 + n);
      const stored = (await rows(table)).map((r) => r.i).filter((i) => i !== undefined);
      expect(stored.sort((a, b) => (a as number) - (b as number))).toEqual(expected);
      const row = await findTable(h.deps.storage.db, h.admin.accountId, database.id, table);
      expect(row?.count).toBe(table === 'known' ? 11 : 10);
    }
  });

  it('fails only the request whose record cannot be written when a group commit holds others', async () => {
    const wide = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`c${i}`, i]));
    const wider = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`d${i}`, i]));
    const [ok, first, second] = await Promise.all([
      post('web_events/mixed', { a: 1 }),
      post('web_events/mixed', wide),
      post('web_events/mixed', wider),
    ]);
    expect(ok.status).toBe(200);
    expect([first.status, second.status].sort()).toEqual([200, 400]);
    expect(await rows('mixed')).toHaveLength(2);
  });

  it('writes into a database deleted and made again on this node at once, never into the old one', async () => {
    expect((await post('web_events/clicks', { a: 1 })).status).toBe(200);
    expect((await h.call('POST', '/v3/database/delete/web_events')).status).toBe(200);
    expect((await post('web_events/clicks', { a: 2 })).status).toBe(404);
    expect((await h.call('POST', '/v3/database/create/web_events')).status).toBe(200);
    expect((await post('web_events/clicks', { a: 3 })).status).toBe(200);
    database = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'web_events')) as DatabaseRow;
    expect((await rows('clicks')).map((r) => r.a)).toEqual([3]);
  });

  it('sees a database made again on another node within CATALOG_CACHE_MS, answering 404 meanwhile', async () => {
    expect((await post('web_events/clicks', { a: 1 })).status).toBe(200);
    const other = await h.secondNode();
    try {
      expect((await other.call('POST', '/v3/database/delete/web_events')).status).toBe(200);
      // On SQLite the next database takes the deleted one's id: this node must not write into it either.
      expect((await other.call('POST', '/v3/database/create/other_db')).status).toBe(200);
      expect((await other.call('POST', '/v3/database/create/web_events')).status).toBe(200);
      // This node still knows the old database: the group commit finds it gone and writes nothing.
      expect((await post('web_events/clicks', { a: 2 })).status).toBe(404);
      h.clock.advance(CATALOG_CACHE_MS);
      expect((await post('web_events/clicks', { a: 3 })).status).toBe(200);
      database = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'web_events')) as DatabaseRow;
      expect((await rows('clicks')).map((r) => r.a)).toEqual([3]);
      const otherDb = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'other_db')) as DatabaseRow;
      expect(await findTable(h.deps.storage.db, h.admin.accountId, otherDb.id, 'clicks')).toBeNull();
    } finally {
      await other.close();
    }
  });
});
