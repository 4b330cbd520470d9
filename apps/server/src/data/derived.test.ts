import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock';
import type { Config } from '../platform/config';
import type { AppDeps } from '../platform/context';
import { memoryLogger } from '../platform/logger';
import { insertId, many, type OpenedStorage, one, run, sql } from '../platform/storage';
import { openTestStorage, testBackend } from '../testing/storage';
import type { DatabaseRow, TableRow } from './catalog';
import { dataPlane } from './dataPlane';
import { type DerivedSetRef, type DerivedSets, derivedSets } from './derived';
import { duckDerivedFile } from './duckDerived';
import { closeDuckFiles } from './duckFiles';
import type { DataPlane } from './plane';
import { derivedSchema } from './postgresDerived';
import { prepareRecord } from './tableStore';

/**
 * Derived sets (derived.ts) on the data planes under test: a build swaps a whole new version in together with
 * its publication, and anything failing on the way (the build, the publication) leaves the old version.
 * PostgreSQL with SVC_TEST_BACKEND=postgres; the embedded default's DuckDB plane in the SQLite pass, as
 * plane.test.ts does.
 */
const engines: [string, (deps: AppDeps) => DataPlane, (deps: AppDeps) => DerivedSets][] = [
  [testBackend() === 'postgres' ? 'postgres' : 'duckdb', dataPlane, derivedSets],
];

describe.each(engines)('derived sets (%s)', (engine, plane, derived) => {
  let dataDir: string;
  let storage: OpenedStorage;
  let deps: AppDeps;
  let database: DatabaseRow;
  let set: DerivedSetRef;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-derived-'));
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
          VALUES (${accountId}, 'src', 0, 1, 1) RETURNING id`,
    );
    database = { id, account_id: accountId, name: 'src', delete_protected: 0, created_at: 1, updated_at: 1 };
    await plane(deps).createDatabase(database);
    const table: TableRow = {
      id: 1,
      account_id: accountId,
      database_id: id,
      name: 'people',
      type: 'log',
      schema_json: '[["name","string"]]',
      count: 0,
      estimated_storage_size: 0,
      last_log_timestamp: null,
      counter_updated_at: null,
      expire_days: null,
      include_v: 1,
      created_at: 1,
      updated_at: 1,
    };
    await plane(deps).transaction(database, (tx) =>
      tx.append(
        table,
        [
          { time: 1, name: 'ann' },
          { time: 2, name: 'bob' },
        ].map((r) => prepareRecord(r)),
        1,
      ),
    );
    await run(storage.db, sql`CREATE TABLE derived_log (version TEXT NOT NULL)`);
    set = { kind: 'audience', accountId, id: 7 };
  });

  afterEach(async () => {
    await closeDuckFiles();
    await storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sources = () => [{ database, table: 'people' }];
  /** Builds a version holding the source's names with `suffix`, published as `version`. */
  const build = (version: string, opts: { refuse?: boolean; fail?: boolean } = {}) =>
    derived(deps).build(
      set,
      sources(),
      async (b) => {
        await sql
          .raw(`CREATE TABLE names AS SELECT name || '${version}' AS name FROM ${b.source(database, 'people')}`)
          .execute(b.ex);
        if (opts.fail) throw new Error('the build failed');
        return version;
      },
      async (control, result) => {
        await run(control, sql`INSERT INTO derived_log (version) VALUES (${result})`);
        if (opts.refuse) throw new Error('a newer build won');
      },
    );
  const names = async () =>
    (
      await derived(deps).read(set, (ex) => many<{ name: string }>(ex, sql`SELECT name FROM names ORDER BY name`))
    )?.value.map((r) => r.name) ?? null;
  const published = async () =>
    (await many<{ version: string }>(storage.db, sql`SELECT version FROM derived_log`)).map((r) => r.version);
  /** What a build leaves beside the current version: `.building` files, or extra schemas. */
  const leftovers = async () => {
    if (engine !== 'postgres') {
      const folder = dirname(duckDerivedFile(dataDir, set));
      return existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.building')) : [];
    }
    const rows = await many<{ name: string }>(
      storage.db,
      sql`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE ${`${derivedSchema(set)}\\_%`}`,
    );
    return rows.map((r) => r.name);
  };

  it('builds, reads and replaces a version together with its publication', async () => {
    expect(await names()).toBeNull();
    expect(await build('1')).toBe('1');
    expect(await names()).toEqual(['ann1', 'bob1']);
    await build('2');
    expect(await names()).toEqual(['ann2', 'bob2']);
    expect(await published()).toEqual(['1', '2']);
    expect(await leftovers()).toEqual([]);
  });

  it('keeps the current version when the build or its publication fails', async () => {
    await build('1');
    await expect(build('2', { fail: true })).rejects.toThrow('the build failed');
    expect(await names()).toEqual(['ann1', 'bob1']);
    await expect(build('3', { refuse: true })).rejects.toThrow('a newer build won');
    expect(await names()).toEqual(['ann1', 'bob1']);
    // The refused publication was rolled back with the swap.
    expect(await published()).toEqual(['1']);
    expect(await leftovers()).toEqual([]);
  });

  it('names a source table that has no data, and removes a set', async () => {
    const missing = derived(deps).build(
      set,
      [{ database, table: 'nothing' }],
      async () => 0,
      async () => {},
    );
    await expect(missing).rejects.toThrow('The table "src.nothing" has no rows yet; import data into it first.');
    await build('1');
    await derived(deps).remove(set);
    expect(await names()).toBeNull();
    const found = await one(storage.db, sql`SELECT COUNT(*) AS n FROM derived_log`);
    expect(found).toEqual({ n: 1 });
  });
});
