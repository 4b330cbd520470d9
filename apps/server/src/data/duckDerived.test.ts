import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../platform/config';
import type { AppDeps } from '../platform/context';
import { many, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import type { DatabaseRow, TableRow } from './catalog';
import type { DerivedSetRef } from './derived';
import { duckDerived, duckDerivedFile } from './duckDerived';
import { closeDuckFiles, openDuckFileCount } from './duckFiles';
import { duckPlane } from './duckPlane';
import { prepareRecord } from './tableStore';

/**
 * DuckDB derived sets led from the server (decision 0039): the sources of two databases are copied into the
 * build's file by the workers owning their files, the request loop keeps none of the plane's files open, and the
 * set's file is one whole version, read while another build replaces it.
 */

let h: Harness;
const crm = { id: 9101, account_id: 1, name: 'crm' } as DatabaseRow;
const web = { id: 9102, account_id: 1, name: 'web' } as DatabaseRow;
const table = (database: DatabaseRow, name: string) =>
  ({ id: database.id, account_id: 1, database_id: database.id, name, schema_json: '[]' }) as TableRow;
const set: DerivedSetRef = { kind: 'audience', accountId: 1, id: 77 };

beforeAll(async () => {
  h = await createHarness();
  // Written by a thread without a pool (as a worker task would be), then closed: the files have no owner yet.
  const here = duckPlane({ config: { dataDir: h.dataDir } as Config } as AppDeps);
  for (const database of [crm, web]) await here.createDatabase(database);
  await here.transaction(crm, (tx) =>
    tx.append(
      table(crm, 'people'),
      [
        { time: 1, id: 'a', city: 'Oslo' },
        { time: 2, id: 'b', city: 'Rome' },
        { time: 3, id: 'a', city: 'Lima' },
      ].map((r) => prepareRecord(r)),
      1,
    ),
  );
  await here.transaction(web, (tx) =>
    tx.append(
      table(web, 'visits'),
      [
        { time: 5, user: 'a', page: '/x' },
        { time: 6, user: 'a', page: '/y' },
        { time: 7, user: 'c', page: '/z' },
      ].map((r) => prepareRecord(r)),
      1,
    ),
  );
  await closeDuckFiles();
});
afterAll(() => h?.close());

const sources = [
  { database: crm, table: 'people' },
  { database: web, table: 'visits' },
];

/** Builds the newest city per person and their visit count, tagged with `version`. */
const build = (version: string) =>
  duckDerived(h.deps).build(
    set,
    sources,
    async (b) => {
      const d = duckDerived(h.deps).dialect;
      const newest = d.newestPerKey({
        key: 'p.id',
        values: ['p.city'],
        time: 'p."time"',
        from: `${b.source(crm, 'people')} p`,
        where: 'p.id IS NOT NULL',
      });
      await sql
        .raw(
          `CREATE TABLE profiles AS SELECT n.k AS key, n.v0 || '${version}' AS city,
             (SELECT COUNT(*) FROM ${b.source(web, 'visits')} v WHERE v."user" = n.k) AS visits
           FROM (${newest}) n`,
        )
        .execute(b.ex);
      return version;
    },
    async () => {},
  );

const profiles = async () =>
  (
    await duckDerived(h.deps).read(set, (ex) =>
      many<{ key: string; city: string; visits: number }>(ex, sql`SELECT * FROM profiles ORDER BY key`),
    )
  )?.value ?? null;

it('builds from the sources of two databases copied by their owners, without opening them in the request loop', async () => {
  expect(await profiles()).toBeNull();
  expect(await build('1')).toBe('1');
  expect(await profiles()).toEqual([
    { key: 'a', city: 'Lima1', visits: 2 },
    { key: 'b', city: 'Rome1', visits: 0 },
  ]);
  expect(openDuckFileCount()).toBe(0);
  const folder = dirname(duckDerivedFile(h.dataDir, set));
  // One file, and no copy of the sources left in it.
  expect(readdirSync(folder)).toEqual(['77.duckdb']);
  await duckDerived(h.deps).read(set, async (ex) => {
    const tables = await many<{ name: string }>(ex, sql`SELECT table_name AS name FROM duckdb_tables()`);
    expect(tables.map((t) => t.name)).toEqual(['profiles']);
  });
});

it('keeps a read on the version it opened while a new one is swapped in', async () => {
  await build('1');
  const seen = await duckDerived(h.deps).read(set, async (ex) => {
    const before = await many<{ city: string }>(ex, sql`SELECT city FROM profiles ORDER BY key`);
    await build('2');
    const after = await many<{ city: string }>(ex, sql`SELECT city FROM profiles ORDER BY key`);
    return [before, after].map((rows) => rows.map((r) => r.city));
  });
  expect(seen?.value).toEqual([
    ['Lima1', 'Rome1'],
    ['Lima1', 'Rome1'],
  ]);
  expect((await profiles())?.map((p) => p.city)).toEqual(['Lima2', 'Rome2']);
  await duckDerived(h.deps).remove(set);
  expect(existsSync(duckDerivedFile(h.dataDir, set))).toBe(false);
  expect(await profiles()).toBeNull();
});

it('names a missing source table, from the worker that owns its file', async () => {
  const missing = duckDerived(h.deps).build(
    set,
    [{ database: web, table: 'orders' }],
    async () => 0,
    async () => {},
  );
  await expect(missing).rejects.toThrow('The table "web.orders" has no rows yet; import data into it first.');
  expect(readdirSync(dirname(duckDerivedFile(h.dataDir, set)))).toEqual([]);
});

it('copies only `time` and the columns a source names, merged over the sources of one table', async () => {
  const seen = await duckDerived(h.deps).build(
    set,
    [
      { database: crm, table: 'people', columns: ['id'] },
      { database: web, table: 'visits', columns: ['user'] },
      { database: web, table: 'visits', columns: ['user', 'nowhere'] },
    ],
    async (b) => {
      const columns = (from: string) =>
        many<{ name: string }>(
          b.ex,
          sql`SELECT column_name AS name FROM duckdb_columns() WHERE table_name = ${from} ORDER BY column_index`,
        );
      const people = await columns(b.source(crm, 'people').slice(1, -1));
      const visits = await columns(b.source(web, 'visits').slice(1, -1));
      return [people.map((c) => c.name), visits.map((c) => c.name)];
    },
    async () => {},
  );
  expect(seen).toEqual([
    ['time', 'id'],
    ['time', 'user'],
  ]);
  // A source without a column list copies every column.
  const all = await duckDerived(h.deps).build(
    set,
    [{ database: crm, table: 'people' }],
    async (b) =>
      (
        await many<{ name: string }>(
          b.ex,
          sql`SELECT column_name AS name FROM duckdb_columns() WHERE table_name = ${b.source(crm, 'people').slice(1, -1)} ORDER BY column_index`,
        )
      ).map((c) => c.name),
    async () => {},
  );
  expect(all).toEqual(['time', 'id', 'city']);
});
