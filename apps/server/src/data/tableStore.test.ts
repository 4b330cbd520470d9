import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customerSchema, many, run, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { type DatabaseRow, findDatabase, findTable, requireTable } from './catalog';
import { dataPlane } from './dataPlane';
import { closeDuckFiles, duckFile, openPrivate } from './duckFiles';
import { duckRows } from './duckKysely';
import { appendRows, prepareRecord, tailRows } from './tableStore';

/** Column types of PostgreSQL and DuckDB by the SQLite type names these tests were written in. */
const PG_TYPES: Record<string, string> = { INTEGER: 'bigint', REAL: 'double precision', TEXT: 'text', BLOB: 'bytea' };
const DUCK_TYPES: Record<string, string> = { INTEGER: 'BIGINT', REAL: 'DOUBLE', TEXT: 'VARCHAR', BLOB: 'BLOB' };

/**
 * The row store of the data plane under test, DuckDB files on the embedded backend (until decision 0053 the
 * SQLite data plane, which these cases pinned) and PostgreSQL schemas: typed columns, ALTER TABLE, the catalog's
 * repair.
 */
describe('table store', () => {
  let h: Harness;
  let database: DatabaseRow;
  beforeEach(async () => {
    h = await createHarness();
    await h.call('POST', '/v3/database/create/store_test');
    database = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'store_test')) as DatabaseRow;
  });
  afterEach(() => h.close());

  const postgres = () => h.deps.storage.backend === 'postgres';
  /**
   * Reads the database's DuckDB file in this thread: the app stops first (its worker, the file's owner, closes
   * it) and starts again on the same folder afterwards.
   */
  const inDuckFile = async <T>(read: (q: (text: string) => Promise<Record<string, unknown>[]>) => Promise<T>) => {
    await h.app.stop();
    const f = await openPrivate(duckFile(h.dataDir, h.admin.accountId, database.id), true);
    try {
      return await read((text) => duckRows(f.conn, text));
    } finally {
      f.close();
      h = await h.restart();
    }
  };
  /**
   * Runs `fn` as the owner of the database's data: on DuckDB the app stops (its worker closes the file) and this
   * thread writes the file, as a worker does, before the app starts again on the same folder.
   */
  const asOwner = async (fn: (deps: Harness['deps']) => Promise<void>) => {
    if (postgres()) return fn(h.deps);
    await h.app.stop();
    try {
      await fn({ ...h.deps, services: undefined });
    } finally {
      await closeDuckFiles();
      h = await h.restart();
    }
  };
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
    const back = Object.fromEntries(Object.entries(DUCK_TYPES).map(([k, v]) => [v, k]));
    const rows = await inDuckFile((q) => q(`SELECT name, type FROM pragma_table_info('${table}') ORDER BY cid`));
    return rows.map((c) => [c.name as string, back[c.type as string] ?? (c.type as string)]);
  };
  const indexesOf = async (table: string): Promise<string[]> => {
    if (postgres()) {
      const rows = await many<{ name: string }>(
        h.deps.storage.db,
        sql`SELECT indexname AS name FROM pg_indexes WHERE schemaname = ${customerSchema(database.id)} AND tablename = ${table}`,
      );
      return rows.map((r) => r.name);
    }
    const rows = await inDuckFile((q) => q(`SELECT index_name FROM duckdb_indexes() WHERE table_name = '${table}'`));
    return rows.map((r) => r.index_name as string);
  };

  it('stores each table as a real table with typed columns (and on PostgreSQL an index on time)', async () => {
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
    const [row] = await dataPlane(h.deps).rows(database, 'typed');
    // PostgreSQL's BIGINT reads as a number (platform/storage/postgres.ts); 2^60 is exact as a double. DuckDB's
    // reads as a number when a double holds it exactly, else as a bigint.
    const big = postgres() ? 2 ** 60 : 2n ** 60n;
    expect(row).toEqual({ time: 1, n: 1, d: 1.5, s: 'x', b: 1, a: '[1,2]', m: '{"k":"v"}', big });
    // DuckDB scans `time` with its zone maps, without an index.
    expect(await indexesOf('typed')).toEqual(postgres() ? ['typed$time'] : []);
    // The catalog's schema, in the columns' order.
    expect((await schemaOf('typed')).map(([name, type]) => `${name} ${type}`)).toEqual([
      'n long',
      'd double',
      's string',
      'b boolean',
      'a array<long>',
      'm map<string,string>',
      'big long',
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
    // Such a write runs where the data is written: on DuckDB in the file's owner, here this thread.
    await asOwner(async (deps) => {
      await appendRows(deps, database, 'marked', [{ time: 1 }], {
        createTable: true,
        within: (t) => t.ensureTable('marker$done', 'id BIGINT'),
      });
      await expect(
        appendRows(deps, database, 'marked', [{ time: 2 }], {
          within: async () => {
            throw new Error('marker failed');
          },
        }),
      ).rejects.toThrow('marker failed');
    });
    expect((await requireTable(h.deps.storage.db, h.admin.accountId, database.id, 'marked')).count).toBe(1);
  });
});
