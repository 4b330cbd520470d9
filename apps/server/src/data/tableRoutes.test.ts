import { tableList, tableObject } from '@svc/contracts';
import { unpackMultiple } from 'msgpackr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { responseErrors, schemaErrors } from '../testing/oasContract';
import { type DatabaseRow, findDatabase } from './catalog';
import { appendRows } from './tableStore';

describe('tables', () => {
  let h: Harness;
  let database: DatabaseRow;
  beforeEach(async () => {
    h = await createHarness();
    await h.call('POST', '/v3/database/create/web_events');
    database = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'web_events')) as DatabaseRow;
  });
  afterEach(() => h.close());

  const show = async (table: string) =>
    (await (await h.call('GET', `/v3/table/show/web_events/${table}`)).json()) as Record<string, unknown>;

  it('creates a log table through the /log form every client uses, and the suffix-free form', async () => {
    const withType = await h.call('POST', '/v3/table/create/web_events/pageviews/log', { form: {} });
    const plain = await h.call('POST', '/v3/table/create/web_events/clicks');
    expect(withType.status).toBe(200);
    expect(await withType.json()).toEqual({ database: 'web_events', table: 'pageviews', type: 'log' });
    expect(await plain.json()).toEqual({ database: 'web_events', table: 'clicks', type: 'log' });
  });

  it('refuses a table type other than log with 422', async () => {
    const res = await h.call('POST', '/v3/table/create/web_events/items/item');
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toBe("Table type must be 'log', not 'item'.");
  });

  it('refuses a second table of the same name with 409, and a table in a missing database with 404', async () => {
    await h.call('POST', '/v3/table/create/web_events/pageviews/log');
    expect((await h.call('POST', '/v3/table/create/web_events/pageviews/log')).status).toBe(409);
    expect((await h.call('POST', '/v3/table/create/no_such_db/pageviews/log')).status).toBe(404);
  });

  it.each([
    ['a quote', encodeURIComponent("page'views")],
    ['300 characters', 't'.repeat(300)],
    ['a dot', 'page.views'],
  ])('refuses a table name with %s with 400 stating the rule', async (_label, name) => {
    const res = await h.call('POST', `/v3/table/create/web_events/${name}/log`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('lowercase letters, digits and underscores');
  });

  it('shows a new table with an empty schema string, zero figures and string times', async () => {
    await h.call('POST', '/v3/table/create/web_events/pageviews/log');
    const body = await show('pageviews');
    expect(body).toEqual({
      id: expect.any(Number),
      name: 'pageviews',
      type: 'log',
      count: 0,
      estimated_storage_size: 0,
      schema: '[]',
      expire_days: null,
      include_v: true,
      counter_updated_at: null,
      last_log_timestamp: null,
      created_at: '2026-11-22 09:00:00 UTC',
      updated_at: '2026-11-22 09:00:00 UTC',
      delete_protected: false,
    });
    expect(tableObject.parse(body)).toBeTruthy();
    expect(schemaErrors('Table', body)).toEqual([]);
  });

  it('takes a schema, expire_days and include_v at creation, as JSON string or array', async () => {
    await h.call('POST', '/v3/table/create/web_events/users/log', {
      form: { schema: '[["name","string","first_name"],["age","long"]]', expire_days: '30', include_v: 'false' },
    });
    await h.call('POST', '/v3/table/create/web_events/orders/log', { json: { schema: [['total', 'double']] } });
    const users = await show('users');
    expect(users).toMatchObject({ expire_days: 30, include_v: false });
    expect(JSON.parse(users.schema as string)).toEqual([
      ['name', 'string', 'first_name'],
      ['age', 'long'],
    ]);
    expect((await show('orders')).schema).toBe('[["total","double"]]');
  });

  it('refuses a malformed schema with 400 naming the problem', async () => {
    const cases: [string, string][] = [
      ['not json', 'must be a JSON array'],
      ['[["a"]]', 'entry 0 must be [name, type]'],
      ['[["a","decimal"]]', 'unknown type "decimal"'],
      ['[["A b","long"]]', 'not a valid column name'],
      ['[["time","long"]]', 'reserved'],
      ['[["a","long"],["a","string"]]', 'appears twice'],
    ];
    for (const [schema, message] of cases) {
      const res = await h.call('POST', '/v3/table/create/web_events/bad_schema/log', { form: { schema } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(message);
    }
  });

  it('keeps count, size, last_log_timestamp and counter_updated_at true after writes', async () => {
    await h.call('POST', '/v3/table/create/web_events/pageviews/log');
    h.clock.advance(5_000);
    await appendRows(h.deps, database, 'pageviews', [
      { time: 1_700_000_000, path: '/a', ms: 12 },
      { time: 1_700_000_100, path: '/b', ms: 7.5 },
    ]);
    const body = await show('pageviews');
    expect(body).toMatchObject({
      count: 2,
      last_log_timestamp: '2023-11-14 22:15:00 UTC',
      counter_updated_at: '2026-11-22 09:00:05 UTC',
    });
    expect(body.estimated_storage_size).toBeGreaterThan(0);
    expect(JSON.parse(body.schema as string)).toEqual([
      ['path', 'string'],
      ['ms', 'double'],
    ]);
    const size = body.estimated_storage_size as number;
    await appendRows(h.deps, database, 'pageviews', [{ time: 1_600_000_000, path: '/c' }]);
    const after = await show('pageviews');
    expect(after.count).toBe(3);
    expect(after.last_log_timestamp).toBe('2023-11-14 22:15:00 UTC');
    expect(after.estimated_storage_size as number).toBeGreaterThan(size);
  });

  it('lists tables as {database, tables} matching the OAS', async () => {
    await h.call('POST', '/v3/table/create/web_events/pageviews/log');
    await appendRows(h.deps, database, 'clicks', [{ time: 1, x: 1 }], { createTable: true });
    const res = await h.call('GET', '/v3/table/list/web_events');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { database: string; tables: { name: string }[] };
    expect(body.database).toBe('web_events');
    expect(body.tables.map((t) => t.name)).toEqual(['clicks', 'pageviews']);
    expect(tableList.parse(body)).toBeTruthy();
    // The OAS types last_log_timestamp as an integer; the wire uses a time string (wire-compat §1.6).
    const forOas = { ...body, tables: body.tables.map((t) => ({ ...t, last_log_timestamp: null })) };
    expect(responseErrors('get', '/table/list/{database_name}', forOas)).toEqual([]);
  });

  it('answers 404 for a missing table or database, and hides other accounts', async () => {
    const other = await h.newAccount('Other');
    await h.call('POST', '/v3/database/create/theirs', { key: other.masterKey });
    await h.call('POST', '/v3/table/create/theirs/secret/log', { key: other.masterKey });
    for (const path of [
      '/v3/table/show/web_events/nothing',
      '/v3/table/list/nothing_here',
      '/v3/table/show/theirs/secret',
      '/v3/table/list/theirs',
      '/v3/table/tail/theirs/secret',
    ]) {
      const res = await h.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ error: 'Resource not found', status_code: 404 });
    }
    expect((await h.call('POST', '/v3/table/delete/theirs/secret')).status).toBe(404);
  });

  it('deletes a table and drops its SQLite table', async () => {
    await appendRows(h.deps, database, 'pageviews', [{ time: 1, a: 'x' }], { createTable: true });
    const res = await h.call('POST', '/v3/table/delete/web_events/pageviews');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ database: 'web_events', table: 'pageviews', type: 'log' });
    expect((await h.call('GET', '/v3/table/show/web_events/pageviews')).status).toBe(404);
    // Re-creating the name starts from nothing.
    await h.call('POST', '/v3/table/create/web_events/pageviews/log');
    await appendRows(h.deps, database, 'pageviews', [{ time: 2 }]);
    expect(await show('pageviews')).toMatchObject({ count: 1, schema: '[]' });
  });

  it('sets the schema with real ALTERs: adds, converts and drops columns', async () => {
    await appendRows(h.deps, database, 'users', [{ time: 1, age: '42', name: 'ann', score: 3 }], { createTable: true });
    expect((await show('users')).schema).toBe('[["age","string"],["name","string"],["score","long"]]');
    const res = await h.call('POST', '/v3/table/update-schema/web_events/users', {
      form: { schema: '[["age","long"],["name","string","full_name"],["city","string"]]' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ database: 'web_events', table: 'users', type: 'log' });
    expect(JSON.parse((await show('users')).schema as string)).toEqual([
      ['age', 'long'],
      ['name', 'string', 'full_name'],
      ['city', 'string'],
    ]);
    await appendRows(h.deps, database, 'users', [{ time: 2, age: 7, city: 'Oslo' }]);
    const tail = await h.call('GET', '/v3/table/tail/web_events/users?count=5');
    expect(await tail.text()).toBe('{"time":2,"age":7,"city":"Oslo"}\n{"time":1,"age":42,"name":"ann"}\n');
  });

  it('appends columns without dropping the others', async () => {
    await appendRows(h.deps, database, 'users', [{ time: 1, name: 'ann' }], { createTable: true });
    await h.call('POST', '/v3/table/append-schema/web_events/users', { json: { schema: [['vip', 'boolean']] } });
    expect((await show('users')).schema).toBe('[["name","string"],["vip","boolean"]]');
  });

  it('refuses update-schema without a schema, and on a missing table', async () => {
    await h.call('POST', '/v3/table/create/web_events/users/log');
    const missing = await h.call('POST', '/v3/table/update-schema/web_events/users', { form: {} });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toContain('Send "schema"');
    const noTable = await h.call('POST', '/v3/table/update-schema/web_events/nope', { form: { schema: '[]' } });
    expect(noTable.status).toBe(404);
  });

  it('tails the newest rows as JSON lines and as concatenated msgpack maps', async () => {
    await appendRows(
      h.deps,
      database,
      'events',
      [
        { time: 10, kind: 'a', tags: ['x', 'y'], ok: true },
        { time: 30, kind: 'c', meta: { n: 1 } },
        { time: 20, kind: 'b' },
      ],
      { createTable: true },
    );
    const json = await h.call('GET', '/v3/table/tail/web_events/events?count=2&format=json');
    expect(json.status).toBe(200);
    expect(
      (await json.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { time: 30, kind: 'c', meta: { n: 1 } },
      { time: 20, kind: 'b' },
    ]);
    const mp = await h.call('GET', '/v3/table/tail/web_events/events?count=10&format=msgpack');
    expect(mp.headers.get('content-type')).toBe('application/x-msgpack');
    const rows = unpackMultiple(new Uint8Array(await mp.arrayBuffer()));
    expect(rows).toEqual([
      { time: 30, kind: 'c', meta: { n: 1 } },
      { time: 20, kind: 'b' },
      { time: 10, kind: 'a', tags: ['x', 'y'], ok: true },
    ]);
    const suffix = await h.call('GET', '/v3/table/tail/web_events/events.msgpack?count=1');
    expect(unpackMultiple(new Uint8Array(await suffix.arrayBuffer()))).toEqual([
      { time: 30, kind: 'c', meta: { n: 1 } },
    ]);
  });

  it('shows binary values in base64 in the JSON tail and as bytes in msgpack', async () => {
    await appendRows(h.deps, database, 'blobs', [{ time: 1, data: new Uint8Array([1, 2, 255]) }], {
      createTable: true,
    });
    const json = await h.call('GET', '/v3/table/tail/web_events/blobs');
    expect(await json.text()).toBe('{"time":1,"data":"AQL/"}\n');
    const mp = await h.call('GET', '/v3/table/tail/web_events/blobs.msgpack');
    const [row] = unpackMultiple(new Uint8Array(await mp.arrayBuffer())) as { data: Uint8Array }[];
    expect([...(row?.data ?? [])]).toEqual([1, 2, 255]);
  });

  it('refuses a bad tail count or format with 400', async () => {
    await h.call('POST', '/v3/table/create/web_events/events/log');
    for (const q of ['count=0', 'count=abc', 'count=10001', 'format=xml']) {
      const res = await h.call('GET', `/v3/table/tail/web_events/events?${q}`);
      expect(res.status, q).toBe(400);
    }
  });

  it('refuses table routes to a write-only key with 403', async () => {
    await h.call('POST', '/v3/table/create/web_events/events/log');
    const key = h.admin.writeOnlyKey;
    const statuses = await Promise.all([
      h.call('POST', '/v3/table/create/web_events/more/log', { key }).then((r) => r.status),
      h.call('GET', '/v3/table/list/web_events', { key }).then((r) => r.status),
      h.call('GET', '/v3/table/tail/web_events/events', { key }).then((r) => r.status),
      h.call('POST', '/v3/table/delete/web_events/events', { key }).then((r) => r.status),
    ]);
    expect(statuses).toEqual([403, 403, 403, 403]);
  });
});
