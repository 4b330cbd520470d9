import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock';
import type { Config } from '../platform/config';
import type { AppDeps } from '../platform/context';
import { memoryLogger } from '../platform/logger';
import { insertId, type OpenedStorage, one, pgIdentifier, run, sql } from '../platform/storage';
import { openTestStorage, testBackend } from '../testing/storage';
import type { DatabaseRow, TableRow } from './catalog';
import type { SchemaEntry } from './columns';
import { dataPlane } from './dataPlane';
import { closeDuckFiles } from './duckFiles';
import type { DataPlane } from './plane';
import { prepareRecord } from './tableStore';

/**
 * The data plane itself (plane.ts), without the app: the same cases against the implementation of the
 * backend under test (DuckDB files on the embedded backend, PostgreSQL schemas with SVC_TEST_BACKEND=postgres).
 * The SQLite data plane these cases also ran on is gone (decision 0053).
 */
const planes: [string, (deps: AppDeps) => DataPlane][] = [
  [testBackend() === 'postgres' ? 'postgres' : 'duckdb', dataPlane],
];

describe.each(planes)('data plane (%s)', (_name, plane) => {
  let dataDir: string;
  let storage: OpenedStorage;
  let deps: AppDeps;
  let database: DatabaseRow;
  let nextTable = 1;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-plane-'));
    storage = await openTestStorage(dataDir);
    deps = {
      storage,
      config: { dataDir } as Config,
      clock: new ManualClock(Date.UTC(2026, 10, 25)),
      logger: memoryLogger(),
    };
    const accountId = await insertId(
      storage.db,
      sql`INSERT INTO accounts (name, created_at) VALUES ('A', 1) RETURNING id`,
    );
    const id = await insertId(
      storage.db,
      sql`INSERT INTO databases (account_id, name, delete_protected, created_at, updated_at)
          VALUES (${accountId}, 'plane_db', 0, 1, 1) RETURNING id`,
    );
    database = { id, account_id: accountId, name: 'plane_db', delete_protected: 0, created_at: 1, updated_at: 1 };
    await plane(deps).createDatabase(database);
  });

  afterEach(async () => {
    await closeDuckFiles();
    await storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const table = (name: string, schema: SchemaEntry[] = []): TableRow => ({
    id: nextTable++,
    account_id: database.account_id,
    database_id: database.id,
    name,
    type: 'log',
    schema_json: JSON.stringify(schema),
    count: 0,
    estimated_storage_size: 0,
    last_log_timestamp: null,
    counter_updated_at: null,
    expire_days: null,
    include_v: 1,
    created_at: 1,
    updated_at: 1,
  });
  const append = (t: TableRow, rows: Record<string, unknown>[]) =>
    plane(deps).transaction(database, (tx) =>
      tx.append(
        t,
        rows.map((r) => prepareRecord(r)),
        1000,
      ),
    );
  const schemaOf = async (name: string) => {
    const meta = (await plane(deps).figures(database)).find((m) => m.name === name);
    return meta ? (JSON.parse(meta.schema_json) as SchemaEntry[]) : null;
  };

  it('creates a table from its catalog row, appends rows and keeps the figures', async () => {
    const t = table('events', [['name', 'string']]);
    await plane(deps).transaction(database, (tx) => tx.ensureDataTable(t));
    expect(await plane(deps).figures(database)).toEqual([
      { name: 'events', schema_json: '[["name","string"]]', row_count: 0, bytes: 0, max_time: null, updated_at: null },
    ]);
    const meta = await append(t, [
      { time: 20, name: 'b' },
      { time: 10, name: 'a' },
    ]);
    expect(meta).toMatchObject({ row_count: 2, max_time: 20, updated_at: 1000 });
    expect(meta.bytes).toBeGreaterThan(16);
    expect(await plane(deps).figures(database)).toEqual([meta]);
    expect(await plane(deps).rows(database, 'events')).toEqual([
      { time: 10, name: 'a' },
      { time: 20, name: 'b' },
    ]);
  });

  it('stores every type as SQLite stores it: integers, doubles, 0/1 booleans, JSON text, bytes', async () => {
    const t = table('typed');
    await append(t, [
      { time: 1, n: 1, d: 1.5, s: 'x', b: true, a: [1, 2], m: { k: 'v' }, bin: new Uint8Array([1, 2, 255]) },
      { time: 2, n: '42', d: '2.5', s: 7, b: 'false', a: null, m: null, bin: null },
      { time: 3, n: 'not a number', d: 'x', b: 'maybe' },
    ]);
    expect(await schemaOf('typed')).toEqual([
      ['n', 'long'],
      ['d', 'double'],
      ['s', 'string'],
      ['b', 'boolean'],
      ['a', 'array<long>'],
      ['m', 'map<string,string>'],
      ['bin', 'binary'],
    ]);
    const rows = await plane(deps).rows(database, 'typed');
    expect(rows.map((r) => ({ ...r, bin: r.bin === null ? null : Buffer.from(r.bin as Uint8Array) }))).toEqual([
      { time: 1, n: 1, d: 1.5, s: 'x', b: 1, a: '[1,2]', m: '{"k":"v"}', bin: Buffer.from([1, 2, 255]) },
      { time: 2, n: 42, d: 2.5, s: '7', b: 0, a: null, m: null, bin: null },
      { time: 3, n: null, d: null, s: null, b: null, a: null, m: null, bin: null },
    ]);
  });

  it('reads back exactly what it stored: escapes, NULL-looking text, unicode, extreme numbers, bytes', async () => {
    const t = table('exact');
    const texts = [
      'a\tb\nc\rd\\e',
      '\\N',
      '\\',
      '\\x41',
      'N',
      '',
      ' lead and trail ',
      '日本語 é 😀 \u2028',
      '"q" \'s\'',
    ];
    const numbers = [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0, -1];
    const doubles = [1.7976931348623157e308, 5e-324, 0.1, -1.5e-300, 123456789.12345679];
    const bytes = [Buffer.from([0, 9, 10, 13, 92, 78, 255]), Buffer.alloc(0)];
    const records = texts.map((s, i) => ({
      time: i,
      s,
      n: numbers[i % numbers.length],
      d: doubles[i % doubles.length],
      bin: bytes[i % bytes.length],
      j: { s },
    }));
    await append(t, [...records, { time: 99, s: null, n: null, d: null, bin: null, j: null }]);
    const rows = await plane(deps).rows(database, 'exact');
    expect(rows.map((r) => ({ ...r, bin: r.bin === null ? null : Buffer.from(r.bin as Uint8Array) }))).toEqual([
      ...records.map((r) => ({ ...r, j: JSON.stringify(r.j) })),
      { time: 99, s: null, n: null, d: null, bin: null, j: null },
    ]);
  });

  it('keeps text with a NUL character where the engine can; PostgreSQL, whose text cannot, stores it without', async () => {
    const t = table('nul');
    await append(t, [{ time: 1, s: 'ok' }]);
    await append(t, [
      { time: 2, s: 'fine' },
      { time: 3, s: 'a\u0000b\u0000', j: ['x\u0000'] },
    ]);
    const kept = _name === 'postgres' ? 'ab' : 'a\u0000b\u0000';
    expect((await plane(deps).rows(database, 'nul')).map((r) => [r.s, r.j])).toEqual([
      ['ok', null],
      ['fine', null],
      // JSON text escapes the character, so every engine keeps it there.
      [kept, '["x\\u0000"]'],
    ]);
  });

  it('adds columns for new keys and widens a whole-number column to double when a fraction arrives', async () => {
    const t = table('grow');
    await append(t, [{ time: 1, price: 10 }]);
    await append(t, [{ time: 2, price: 10.5, label: 'x' }]);
    expect(await schemaOf('grow')).toEqual([
      ['price', 'double'],
      ['label', 'string'],
    ]);
    expect(await plane(deps).rows(database, 'grow')).toEqual([
      { time: 1, price: 10, label: null },
      { time: 2, price: 10.5, label: 'x' },
    ]);
  });

  it('changes the schema with real ALTERs: adds, converts values and drops columns', async () => {
    const t = table('users');
    await append(t, [
      { time: 1, age: '42', name: 'ann', score: 3 },
      { time: 2, age: 'old', name: 'bob', score: 4 },
    ]);
    await plane(deps).transaction(database, (tx) =>
      tx.changeSchema(
        t,
        [
          ['age', 'long'],
          ['name', 'string'],
          ['city', 'string'],
        ],
        'replace',
      ),
    );
    expect(await schemaOf('users')).toEqual([
      ['age', 'long'],
      ['name', 'string'],
      ['city', 'string'],
    ]);
    const rows = await plane(deps).rows(database, 'users');
    expect(rows.map((r) => Object.keys(r).sort())).toEqual([
      ['age', 'city', 'name', 'time'],
      ['age', 'city', 'name', 'time'],
    ]);
    expect(rows).toEqual([
      expect.objectContaining({ time: 1, age: 42, name: 'ann', city: null }),
      expect.objectContaining({ time: 2, age: null, name: 'bob', city: null }),
    ]);
    await plane(deps).transaction(database, (tx) => tx.changeSchema(t, [['age', 'string']], 'append'));
    expect((await schemaOf('users'))?.[0]).toEqual(['age', 'string']);
    expect((await plane(deps).rows(database, 'users')).map((r) => r.age)).toEqual(['42', null]);
  });

  const merge = (t: TableRow, rows: Record<string, unknown>[], key: string[]) =>
    plane(deps).transaction(database, (tx) =>
      tx.merge(
        t,
        rows.map((r) => prepareRecord(r)),
        key,
        3000,
      ),
    );

  it('merges by key: one row per key, the last record of a key wins, other keys stay, figures follow', async () => {
    const t = table('customers');
    await append(t, [
      { time: 10, id: 1, name: 'ann' },
      { time: 20, id: 2, name: 'bob' },
      { time: 30, id: 3, name: 'cid' },
    ]);
    const before = (await plane(deps).figures(database))[0];
    const result = await merge(
      t,
      [
        { time: 5, id: 3, name: 'cid v2' },
        { time: 6, id: 4, name: 'dan', city: 'Oslo' },
        { time: 7, id: 3, name: 'cid v3' },
      ],
      ['id'],
    );
    expect(result).toMatchObject({ inserted: 2, replaced: 1 });
    const rows = await plane(deps).rows(database, 'customers');
    expect(rows).toEqual([
      { time: 6, id: 4, name: 'dan', city: 'Oslo' },
      { time: 7, id: 3, name: 'cid v3', city: null },
      { time: 10, id: 1, name: 'ann', city: null },
      { time: 20, id: 2, name: 'bob', city: null },
    ]);
    const after = (await plane(deps).figures(database))[0];
    // The newest row (time 30) was replaced by one of time 7: the newest time is read again.
    expect(after).toMatchObject({ row_count: 4, max_time: 20, updated_at: 3000 });
    expect(after).toEqual(result.meta);
    expect(after?.bytes).toBeGreaterThan(before?.bytes ?? 0);
    // Merging the same records again changes nothing but the write time.
    await merge(t, [{ time: 7, id: 3, name: 'cid v3' }], ['id']);
    expect(await plane(deps).rows(database, 'customers')).toEqual(rows);
    expect((await plane(deps).figures(database))[0]).toMatchObject({ row_count: 4, bytes: after?.bytes });
  });

  it('merges by a composite key of text and numbers, and after the key column changed type', async () => {
    const t = table('prices');
    await merge(
      t,
      [
        { time: 1, shop: 'a', sku: 1, price: 1.5 },
        { time: 1, shop: 'b', sku: 1, price: 2.5 },
      ],
      ['shop', 'sku'],
    );
    await merge(t, [{ time: 2, shop: 'b', sku: 1, price: 3 }], ['shop', 'sku']);
    expect((await plane(deps).rows(database, 'prices')).map((r) => [r.shop, r.sku, r.price])).toEqual([
      ['a', 1, 1.5],
      ['b', 1, 3],
    ]);
    // A key column converted to text keeps merging (its index is made again).
    await plane(deps).transaction(database, (tx) => tx.changeSchema(t, [['sku', 'string']], 'append'));
    await merge(t, [{ time: 3, shop: 'a', sku: '1', price: 9 }], ['shop', 'sku']);
    expect((await plane(deps).rows(database, 'prices')).map((r) => [r.shop, r.sku, r.price])).toEqual([
      ['b', '1', 3],
      ['a', '1', 9],
    ]);
  });

  it('merges twice and adds columns in one transaction (rows replaced, then the table grows)', async () => {
    const t = table('members');
    await append(t, [
      { time: 1, id: 1, name: 'ann' },
      { time: 2, id: 2, name: 'bob' },
    ]);
    await plane(deps).transaction(database, async (tx) => {
      await tx.merge(t, [prepareRecord({ time: 3, id: 1, name: 'ann v2' })], ['id'], 4000);
      await tx.merge(t, [prepareRecord({ time: 4, id: 2, name: 'bob v2', tier: 'gold' })], ['id'], 4000);
      await tx.changeSchema(t, [['id', 'string']], 'append');
    });
    expect(await plane(deps).rows(database, 'members')).toEqual([
      { time: 3, id: '1', name: 'ann v2', tier: null },
      { time: 4, id: '2', name: 'bob v2', tier: 'gold' },
    ]);
    expect((await plane(deps).figures(database))[0]).toMatchObject({ row_count: 2, max_time: 4 });
  });

  it('refuses a record with an empty key column and writes nothing of the call', async () => {
    const t = table('keyed');
    await merge(t, [{ time: 1, id: 1, label: 'a' }], ['id']);
    await expect(
      merge(
        t,
        [
          { time: 2, id: 2, label: 'b' },
          { time: 3, label: 'no key' },
        ],
        ['id'],
      ),
    ).rejects.toThrow('no value in the key column "id" of "keyed"');
    expect(await plane(deps).rows(database, 'keyed')).toEqual([{ time: 1, id: 1, label: 'a' }]);
    expect((await plane(deps).figures(database))[0]).toMatchObject({ row_count: 1 });
  });

  it('tails the newest rows first, ties by the latest write', async () => {
    const t = table('tailed');
    await append(t, [{ time: 5, i: 1 }]);
    await append(t, [{ time: 5, i: 2 }]);
    await append(t, [{ time: 9, i: 3 }]);
    await append(t, [{ time: 1, i: 4 }]);
    const found = await plane(deps).tail(database, 'tailed', 3);
    expect(found?.rows.map((r) => Number(r.i))).toEqual([3, 2, 1]);
    expect(found?.meta.row_count).toBe(4);
    expect(await plane(deps).tail(database, 'absent', 3)).toBeNull();
  });

  it('leaves nothing behind when a transaction fails: rows, columns and figures roll back', async () => {
    const t = table('atomic');
    await append(t, [{ time: 1, a: 1 }]);
    await expect(
      plane(deps).transaction(database, async (tx) => {
        await tx.append(t, [prepareRecord({ time: 2, a: 2, b: 'new' })], 2000);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await schemaOf('atomic')).toEqual([['a', 'long']]);
    expect(await plane(deps).rows(database, 'atomic')).toEqual([{ time: 1, a: 1 }]);
    expect((await plane(deps).figures(database))[0]).toMatchObject({ row_count: 1, max_time: 1 });
  });

  it('keeps the figures exact when they are read with the BEGIN and written with the COMMIT', async () => {
    const t = table('figured');
    const other = table('unnamed');
    await append(t, [{ time: 1, a: 1 }]);
    // Named and unnamed tables, one written twice, a new column, and a statement of the caller's after the writes.
    await plane(deps).transaction(
      database,
      async (tx) => {
        await tx.append(t, [prepareRecord({ time: 2, a: 2 })], 2000);
        await tx.append(t, [prepareRecord({ time: 5, a: 3, c: 'new' })], 3000);
        await tx.append(other, [prepareRecord({ time: 7, b: 'x' })], 2000);
        await tx.ensureTable('_svc$noted', 'token TEXT PRIMARY KEY');
        await run(tx.ex, sql`INSERT INTO ${tx.table('_svc$noted')} (token) VALUES ('t1')`);
      },
      ['figured'],
    );
    // A failed write on the same file, then one more: the failed one leaves nothing, the next starts clean.
    await expect(
      plane(deps).transaction(
        database,
        async (tx) => {
          await tx.append(t, [prepareRecord({ time: 9, a: 9 })], 4000);
          throw new Error('stop');
        },
        ['figured'],
      ),
    ).rejects.toThrow('stop');
    await plane(deps).transaction(database, (tx) => tx.append(t, [prepareRecord({ time: 3, a: 4 })], 5000), [
      'figured',
    ]);
    const figures = new Map((await plane(deps).figures(database)).map((m) => [m.name, m]));
    expect(figures.get('figured')).toMatchObject({ row_count: 4, max_time: 5, updated_at: 5000 });
    expect(JSON.parse(figures.get('figured')?.schema_json ?? '[]')).toEqual([
      ['a', 'long'],
      ['c', 'string'],
    ]);
    expect(figures.get('unnamed')).toMatchObject({ row_count: 1, max_time: 7 });
    const values = (await plane(deps).rows(database, 'figured')).map((r) => Number(r.a));
    expect(values.sort()).toEqual([1, 2, 3, 4]);
  });

  it('keeps helper tables of ours next to the rows, in the same transaction', async () => {
    await plane(deps).transaction(database, async (tx) => {
      expect(await tx.hasTable('_svc$marker')).toBe(false);
      await tx.ensureTable('_svc$marker', 'token TEXT PRIMARY KEY, done_at BIGINT NOT NULL');
      await run(tx.ex, sql`INSERT INTO ${tx.table('_svc$marker')} (token, done_at) VALUES ('t1', 1)`);
    });
    const found = await plane(deps).transaction(database, async (tx) =>
      one<{ done_at: number }>(tx.ex, sql`SELECT done_at FROM ${tx.table('_svc$marker')} WHERE token = 't1'`),
    );
    expect(Number(found?.done_at)).toBe(1);
  });

  it('takes up to 1000 columns besides time and refuses more before any ALTER', async () => {
    const t = table('wide');
    const keys = (n: number, prefix = 'c') =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));
    await append(t, [{ time: 1, ...keys(1000) }]);
    expect(await schemaOf('wide')).toHaveLength(1000);
    await expect(append(t, [{ time: 2, extra: 1 }])).rejects.toThrow('at most 1000 columns');
    expect(await schemaOf('wide')).toHaveLength(1000);
    const [row] = await plane(deps).rows(database, 'wide');
    expect(row?.c999).toBe(999);
  });

  it('handles names longer than PostgreSQL identifiers without collisions', async () => {
    const long = (c: string) => `${'t'.repeat(70)}${c}`;
    await append(table(long('a')), [{ time: 1, [`${'k'.repeat(100)}_1`]: 1, [`${'k'.repeat(100)}_2`]: 2 }]);
    await append(table(long('b')), [{ time: 2 }]);
    expect((await plane(deps).rows(database, long('a'))).length).toBe(1);
    expect((await plane(deps).rows(database, long('b'))).length).toBe(1);
    const tail = await plane(deps).tail(database, long('a'), 1);
    expect(tail?.rows[0]).toMatchObject({ [`${'k'.repeat(100)}_1`]: 1, [`${'k'.repeat(100)}_2`]: 2 });
    expect(pgIdentifier(long('a'))).toHaveLength(63);
    expect(pgIdentifier(long('a'))).not.toBe(pgIdentifier(long('b')));
  });

  it('swaps two tables (rows, columns, figures) and moves one to another database with its rows', async () => {
    const a = table('left');
    const b = table('right');
    await append(a, [{ time: 1, l: 'a' }]);
    await append(b, [
      { time: 2, r: 2 },
      { time: 3, r: 3 },
    ]);
    await plane(deps).swapTables(database, a, b, async () => undefined);
    expect(await plane(deps).rows(database, 'left')).toEqual([
      { time: 2, r: 2 },
      { time: 3, r: 3 },
    ]);
    expect(await plane(deps).rows(database, 'right')).toEqual([{ time: 1, l: 'a' }]);
    expect((await plane(deps).figures(database)).map((m) => [m.name, m.row_count])).toEqual([
      ['left', 2],
      ['right', 1],
    ]);
    const id = await insertId(
      storage.db,
      sql`INSERT INTO databases (account_id, name, delete_protected, created_at, updated_at)
          VALUES (${database.account_id}, 'other_db', 0, 1, 1) RETURNING id`,
    );
    const other: DatabaseRow = { ...database, id, name: 'other_db' };
    await plane(deps).createDatabase(other);
    let cataloged = false;
    await plane(deps).moveTable(database, other, { ...b, name: 'right' }, async () => {
      cataloged = true;
    });
    expect(cataloged).toBe(true);
    expect(await plane(deps).rows(other, 'right')).toEqual([{ time: 1, l: 'a' }]);
    expect((await plane(deps).figures(other)).map((m) => [m.name, m.row_count, m.schema_json])).toEqual([
      ['right', 1, '[["l","string"]]'],
    ]);
    expect(await plane(deps).rows(database, 'right')).toEqual([]);
    expect((await plane(deps).figures(database)).map((m) => m.name)).toEqual(['left']);
  });

  it('drops a table, and deletes the whole database', async () => {
    const t = table('gone');
    await append(t, [{ time: 1 }]);
    await plane(deps).transaction(database, (tx) => tx.dropTable('gone'));
    expect(await plane(deps).figures(database)).toEqual([]);
    expect(await plane(deps).rows(database, 'gone')).toEqual([]);
    await append(t, [{ time: 2 }]);
    await plane(deps).deleteDatabase(database);
    expect(await plane(deps).figures(database)).toEqual([]);
    expect(await plane(deps).tail(database, 'gone', 1)).toBeNull();
  });
});
