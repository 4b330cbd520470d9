import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../platform/db';
import { customerSchema, many, run, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { type DatabaseRow, databaseFile, findDatabase, findTable, requireTable } from './catalog';
import { dataPlane } from './dataPlane';
import { appendRows, prepareRecord, tailRows } from './tableStore';

const PG_TYPES: Record<string, string> = { INTEGER: 'bigint', REAL: 'double precision', TEXT: 'text', BLOB: 'bytea' };

/**
 * The row store of the SQLite plane and of PostgreSQL: typed columns, ALTER TABLE, the catalog's repair. The
 * DuckDB plane keeps its own files and has tests of its own (plane.test.ts runs every plane), so this file pins SQLite on
 * the embedded backend whatever SVC_DATA_PLANE says.
 */
describe('table store', () => {
  let h: Harness;
  let database: DatabaseRow;
  beforeEach(async () => {
    h = await createHarness({ dataPlane: 'sqlite' });
    await h.call('POST', '/v3/database/create/store_test');
    database = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'store_test')) as DatabaseRow;
  });
  afterEach(() => h.close());

  const postgres = () => h.deps.storage.backend === 'postgres';
  const file = () => openSqlite(databaseFile(h.dataDir, h.admin.accountId, database.id), { readonly: true });
  const schemaOf = async (name: string) =>
    JSON.parse((await requireTable(h.deps.storage.db, h.admin.accountId, database.id, name)).schema_json) as string[][];
  /** The table's columns and declared types, in SQLite's names (PostgreSQL's mapped back). */
  const columnsOf = async (table: string): Promise<string[][]> => {
    if (postgres()) {
      const rows = await many<{ name: string; type: string }>(
        h.deps.storage.db,
        sql`SELECT column_name AS name, data_type AS type FROM information_schema.columns
            WHERE table_schema = ${customerSchema(database.id)} AND table_name = ${table} ORDER BY ordinal_position`,
      );
      const back = Object.fromEntries(Object.entries(PG_TYPES).map(([k, v]) => [v, k]));
      return rows.map((c) => [c.name, back[c.type] ?? c.type]);
    }
    const f = file();
    try {
      return (f.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; type: string }[]).map((c) => [
        c.name,
        c.type,
      ]);
    } finally {
      f.close();
    }
  };
  const indexesOf = async (table: string): Promise<string[]> => {
    if (postgres()) {
      const rows = await many<{ name: string }>(
        h.deps.storage.db,
        sql`SELECT indexname AS name FROM pg_indexes WHERE schemaname = ${customerSchema(database.id)} AND tablename = ${table}`,
      );
      return rows.map((r) => r.name);
    }
    const f = file();
    try {
      return (f.prepare(`PRAGMA index_list("${table}")`).all() as { name: string }[]).map((i) => i.name);
    } finally {
      f.close();
    }
  };

  it('stores each table as a real table with typed columns and an index on time', async () => {
    await appendRows(
      h.deps,
      database,
      'typed',
      [{ time: 1, n: 1, d: 1.5, s: 'x', b: true, a: [1, 2], m: { k: 'v' }, big: 2n ** 60n }],
      { createTable: true },
    );
    expect(await columnsOf('typed')).toEqual([
      ['time', 'INTEGER'],
      ['n', 'INTEGER'],
      ['d', 'REAL'],
      ['s', 'TEXT'],
      ['b', 'INTEGER'],
      ['a', 'TEXT'],
      ['m', 'TEXT'],
      ['big', 'INTEGER'],
    ]);
    expect(await indexesOf('typed')).toEqual(['typed$time']);
    if (postgres()) {
      // PostgreSQL's BIGINT reads as a number (platform/storage/postgres.ts); 2^60 is exact as a double.
      const [row] = await dataPlane(h.deps).rows(database, 'typed');
      expect(row).toEqual({ time: 1, n: 1, d: 1.5, s: 'x', b: 1, a: '[1,2]', m: '{"k":"v"}', big: 2 ** 60 });
    } else {
      const f = file();
      const row = f.prepare('SELECT * FROM typed').safeIntegers(true).get() as Record<string, unknown>;
      expect(row).toEqual({ time: 1n, n: 1n, d: 1.5, s: 'x', b: 1n, a: '[1,2]', m: '{"k":"v"}', big: 2n ** 60n });
      f.close();
    }
    expect(await schemaOf('typed')).toEqual([
      ['n', 'long'],
      ['d', 'double'],
      ['s', 'string'],
      ['b', 'boolean'],
      ['a', 'array<long>'],
      ['m', 'map<string,string>'],
      ['big', 'long'],
    ]);
  });

  it('creates the table with its schema columns as soon as the table is created', async () => {
    await h.call('POST', '/v3/table/create/store_test/users/log', {
      form: { schema: '[["name","string"],["age","int"]]' },
    });
    expect(await columnsOf('users')).toEqual([
      ['time', 'INTEGER'],
      ['name', 'TEXT'],
      ['age', 'INTEGER'],
    ]);
  });

  it('adds a column with ALTER TABLE when a new key arrives, keeping old rows', async () => {
    await appendRows(h.deps, database, 'grow', [{ time: 1, a: 1 }], { createTable: true });
    await appendRows(h.deps, database, 'grow', [{ time: 2, b: 'new' }]);
    expect(await schemaOf('grow')).toEqual([
      ['a', 'long'],
      ['b', 'string'],
    ]);
    expect(
      await tailRows(
        h.deps,
        database,
        await requireTable(h.deps.storage.db, h.admin.accountId, database.id, 'grow'),
        10,
      ),
    ).toEqual([
      { time: 2, b: 'new' },
      { time: 1, a: 1 },
    ]);
  });

  it('widens a whole-number column to double when a fraction arrives', async () => {
    await appendRows(h.deps, database, 'prices', [{ time: 1, price: 10 }], { createTable: true });
    await appendRows(h.deps, database, 'prices', [{ time: 2, price: 10.5 }]);
    expect(await schemaOf('prices')).toEqual([['price', 'double']]);
    const rows = await tailRows(
      h.deps,
      database,
      await requireTable(h.deps.storage.db, h.admin.accountId, database.id, 'prices'),
      10,
    );
    expect(rows.map((r) => r.price)).toEqual([10.5, 10]);
  });

  it('stores a value that does not fit its column type as NULL, as schema-on-read shows it', async () => {
    await appendRows(h.deps, database, 'mixed', [{ time: 1, n: 5 }], { createTable: true });
    await appendRows(h.deps, database, 'mixed', [
      { time: 2, n: 'not a number' },
      { time: 3, n: '12' },
    ]);
    const rows = await tailRows(
      h.deps,
      database,
      await requireTable(h.deps.storage.db, h.admin.accountId, database.id, 'mixed'),
      10,
    );
    expect(rows).toEqual([{ time: 3, n: 12 }, { time: 2 }, { time: 1, n: 5 }]);
  });

  it('maps keys to column names and documents the rule through its errors', async () => {
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

  it('requires an integer time in seconds', async () => {
    expect(() => prepareRecord({ a: 1 })).toThrow('has no "time"');
    expect(prepareRecord({ a: 1 }, 99).time).toBe(99);
    expect(prepareRecord({ time: null }, 99).time).toBe(99);
    for (const time of [1.5, '1700000000', true, 1e20]) {
      expect(() => prepareRecord({ time })).toThrow('"time" must be an integer Unix time');
    }
  });

  it('writes nothing when one row of a call is refused', async () => {
    await expect(
      appendRows(h.deps, database, 'atomic', [{ time: 1, a: 1 }, { time: 'x' }], { createTable: true }),
    ).rejects.toThrow('"time" must be');
    expect(await findTable(h.deps.storage.db, h.admin.accountId, database.id, 'atomic')).toBeNull();
  });

  it('refuses rows for a missing table unless asked to create it', async () => {
    await expect(appendRows(h.deps, database, 'missing', [{ time: 1 }])).rejects.toThrow('does not exist');
  });

  it('refuses a table of more than 1000 columns', async () => {
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`c${i}`, i]));
    await expect(appendRows(h.deps, database, 'wide', [{ time: 1, ...wide }], { createTable: true })).rejects.toThrow(
      'at most 1000 keys',
    );
  });

  it('refuses rows that together would give a table more than 1000 columns, before any ALTER', async () => {
    const keys = (prefix: string) => Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`${prefix}${i}`, i]));
    await expect(
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
    ).rejects.toThrow('at most 1000 columns');
    expect(await requireTable(h.deps.storage.db, h.admin.accountId, database.id, 'wide')).toMatchObject({
      count: 0,
      schema_json: '[]',
    });
  });

  it('brings the catalog back in line with the data after a crash between the two commits', async () => {
    await appendRows(h.deps, database, 'crash', [{ time: 5, a: 1 }], { createTable: true });
    // Simulate a crash after the data committed but before the catalog was updated.
    await run(
      h.deps.storage.db,
      sql`UPDATE tables SET count = 0, estimated_storage_size = 0, last_log_timestamp = NULL, schema_json = '[]'`,
    );
    h = await h.restart();
    const db = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'store_test')) as DatabaseRow;
    expect(await requireTable(h.deps.storage.db, h.admin.accountId, db.id, 'crash')).toMatchObject({
      count: 1,
      last_log_timestamp: 5,
      schema_json: '[["a","long"]]',
    });
  });

  it('runs an extra step inside the same transaction as the rows', async () => {
    await appendRows(h.deps, database, 'marked', [{ time: 1 }], {
      createTable: true,
      within: (t) => t.ensureTable('marker$done', 'id BIGINT'),
    });
    await expect(
      appendRows(h.deps, database, 'marked', [{ time: 2 }], {
        within: async () => {
          throw new Error('marker failed');
        },
      }),
    ).rejects.toThrow('marker failed');
    expect((await requireTable(h.deps.storage.db, h.admin.accountId, database.id, 'marked')).count).toBe(1);
  });
});
