import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { openControlDb, openSqlite } from '../platform/db';
import { createHarness, type Harness } from '../testing/harness';
import { type DatabaseRow, databaseFile, findDatabase, findTable, requireTable } from './catalog';
import { closeDataFiles } from './dataFiles';
import { appendRows, prepareRecord, tailRows } from './tableStore';

describe('table store', () => {
  let h: Harness;
  let database: DatabaseRow;
  beforeEach(async () => {
    h = await createHarness();
    await h.call('POST', '/v3/database/create/store_test');
    database = findDatabase(h.deps.db, h.admin.accountId, 'store_test') as DatabaseRow;
  });
  afterEach(() => {
    closeDataFiles(h.deps);
    h.close();
  });

  const file = () => openSqlite(databaseFile(h.dataDir, h.admin.accountId, database.id), { readonly: true });
  const schemaOf = (name: string) =>
    JSON.parse(requireTable(h.deps.db, h.admin.accountId, database.id, name).schema_json) as string[][];

  it('stores each table as a real SQLite table with typed columns and an index on time', () => {
    appendRows(
      h.deps,
      database,
      'typed',
      [{ time: 1, n: 1, d: 1.5, s: 'x', b: true, a: [1, 2], m: { k: 'v' }, big: 2n ** 60n }],
      { createTable: true },
    );
    const f = file();
    const columns = f.prepare('PRAGMA table_info("typed")').all() as { name: string; type: string }[];
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ['time', 'INTEGER'],
      ['n', 'INTEGER'],
      ['d', 'REAL'],
      ['s', 'TEXT'],
      ['b', 'INTEGER'],
      ['a', 'TEXT'],
      ['m', 'TEXT'],
      ['big', 'INTEGER'],
    ]);
    const indexes = f.prepare('PRAGMA index_list("typed")').all() as { name: string }[];
    expect(indexes.map((i) => i.name)).toEqual(['typed$time']);
    const row = f.prepare('SELECT * FROM typed').safeIntegers(true).get() as Record<string, unknown>;
    expect(row).toEqual({ time: 1n, n: 1n, d: 1.5, s: 'x', b: 1n, a: '[1,2]', m: '{"k":"v"}', big: 2n ** 60n });
    f.close();
    expect(schemaOf('typed')).toEqual([
      ['n', 'long'],
      ['d', 'double'],
      ['s', 'string'],
      ['b', 'boolean'],
      ['a', 'array<long>'],
      ['m', 'map<string,string>'],
      ['big', 'long'],
    ]);
  });

  it('creates the SQLite table with its schema columns as soon as the table is created', async () => {
    await h.call('POST', '/v3/table/create/store_test/users/log', {
      form: { schema: '[["name","string"],["age","int"]]' },
    });
    const f = file();
    const columns = f.prepare('PRAGMA table_info("users")').all() as { name: string; type: string }[];
    expect(columns.map((c) => [c.name, c.type])).toEqual([
      ['time', 'INTEGER'],
      ['name', 'TEXT'],
      ['age', 'INTEGER'],
    ]);
    f.close();
  });

  it('adds a column with ALTER TABLE when a new key arrives, keeping old rows', () => {
    appendRows(h.deps, database, 'grow', [{ time: 1, a: 1 }], { createTable: true });
    appendRows(h.deps, database, 'grow', [{ time: 2, b: 'new' }]);
    expect(schemaOf('grow')).toEqual([
      ['a', 'long'],
      ['b', 'string'],
    ]);
    expect(tailRows(h.deps, database, requireTable(h.deps.db, h.admin.accountId, database.id, 'grow'), 10)).toEqual([
      { time: 2, b: 'new' },
      { time: 1, a: 1 },
    ]);
  });

  it('widens a whole-number column to double when a fraction arrives', () => {
    appendRows(h.deps, database, 'prices', [{ time: 1, price: 10 }], { createTable: true });
    appendRows(h.deps, database, 'prices', [{ time: 2, price: 10.5 }]);
    expect(schemaOf('prices')).toEqual([['price', 'double']]);
    const rows = tailRows(h.deps, database, requireTable(h.deps.db, h.admin.accountId, database.id, 'prices'), 10);
    expect(rows.map((r) => r.price)).toEqual([10.5, 10]);
  });

  it('stores a value that does not fit its column type as NULL, as schema-on-read shows it', () => {
    appendRows(h.deps, database, 'mixed', [{ time: 1, n: 5 }], { createTable: true });
    appendRows(h.deps, database, 'mixed', [
      { time: 2, n: 'not a number' },
      { time: 3, n: '12' },
    ]);
    const rows = tailRows(h.deps, database, requireTable(h.deps.db, h.admin.accountId, database.id, 'mixed'), 10);
    expect(rows).toEqual([{ time: 3, n: 12 }, { time: 2 }, { time: 1, n: 5 }]);
  });

  it('maps keys to column names and documents the rule through its errors', () => {
    expect(prepareRecord({ time: 1, userId: 1, 'page-url': 'x', '1st': true }).values).toEqual([
      ['userid', 1],
      ['page_url', 'x'],
      ['_1st', true],
    ]);
    expect(() => prepareRecord({ time: 1, '': 1 })).toThrow('cannot be a column name');
    expect(() => prepareRecord({ time: 1, ['k'.repeat(129)]: 1 })).toThrow('at most 128 characters');
    expect(() => prepareRecord({ time: 1, rowid: 1 })).toThrow('reserved');
    expect(() => prepareRecord({ time: 1, Name: 1, name: 2 })).toThrow('another key of the record also uses');
    expect(() => prepareRecord({ time: 1, TIME: 2 })).toThrow('another key');
  });

  it('requires an integer time in seconds', () => {
    expect(() => prepareRecord({ a: 1 })).toThrow('has no "time"');
    expect(prepareRecord({ a: 1 }, 99).time).toBe(99);
    expect(prepareRecord({ time: null }, 99).time).toBe(99);
    for (const time of [1.5, '1700000000', true, 1e20]) {
      expect(() => prepareRecord({ time })).toThrow('"time" must be an integer Unix time');
    }
  });

  it('writes nothing when one row of a call is refused', () => {
    expect(() =>
      appendRows(h.deps, database, 'atomic', [{ time: 1, a: 1 }, { time: 'x' }], { createTable: true }),
    ).toThrow('"time" must be');
    expect(findTable(h.deps.db, h.admin.accountId, database.id, 'atomic')).toBeNull();
  });

  it('refuses rows for a missing table unless asked to create it', () => {
    expect(() => appendRows(h.deps, database, 'missing', [{ time: 1 }])).toThrow('does not exist');
  });

  it('refuses a table of more than 1000 columns', () => {
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`c${i}`, i]));
    expect(() => appendRows(h.deps, database, 'wide', [{ time: 1, ...wide }], { createTable: true })).toThrow(
      'at most 1000 keys',
    );
  });

  it('refuses rows that together would give a table more than 1000 columns, before any ALTER', () => {
    const keys = (prefix: string) => Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`${prefix}${i}`, i]));
    expect(() =>
      appendRows(
        h.deps,
        database,
        'wide',
        [
          { time: 1, ...keys('a') },
          { time: 2, ...keys('b') },
          { time: 3, ...keys('c') },
        ],
        {
          createTable: true,
        },
      ),
    ).toThrow('at most 1000 columns');
    expect(requireTable(h.deps.db, h.admin.accountId, database.id, 'wide')).toMatchObject({
      count: 0,
      schema_json: '[]',
    });
  });

  it('brings the catalog back in line with the data file after a crash between the two commits', () => {
    appendRows(h.deps, database, 'crash', [{ time: 5, a: 1 }], { createTable: true });
    // Simulate a crash after the data file committed but before the catalog was updated.
    h.deps.db
      .prepare('UPDATE tables SET count = 0, estimated_storage_size = 0, last_log_timestamp = NULL, schema_json = ?')
      .run('[]');
    closeDataFiles(h.deps);
    const control = openControlDb(join(h.dataDir, 'control.sqlite'));
    const restarted = { ...h.deps, db: control };
    createApp(restarted);
    const db = findDatabase(control, h.admin.accountId, 'store_test') as DatabaseRow;
    expect(requireTable(control, h.admin.accountId, db.id, 'crash')).toMatchObject({
      count: 1,
      last_log_timestamp: 5,
      schema_json: '[["a","long"]]',
    });
    closeDataFiles(restarted);
    control.close();
  });

  it('runs an extra step inside the same transaction as the rows', () => {
    appendRows(h.deps, database, 'marked', [{ time: 1 }], {
      createTable: true,
      within: (f) => f.db.exec('CREATE TABLE IF NOT EXISTS "marker$done" (id INTEGER)'),
    });
    expect(() =>
      appendRows(h.deps, database, 'marked', [{ time: 2 }], {
        within: () => {
          throw new Error('marker failed');
        },
      }),
    ).toThrow('marker failed');
    expect(requireTable(h.deps.db, h.admin.accountId, database.id, 'marked').count).toBe(1);
  });
});
