import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { unpackMultiple } from 'msgpackr';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  closeDuckFiles,
  type DatabaseRow,
  duckLimits,
  duckPlane,
  prepareRecord,
  type TableRow,
  withDuckConnection,
} from '../../../data';
import type { Config } from '../../../platform/config';
import type { AppDeps } from '../../../platform/context';
import { QueryRefused } from '../tokens';
import { duckQueryEngine } from './engine';

/**
 * Query jobs on the files the DuckDB data plane writes: the plane opens every file with the sandbox settings
 * (platform/duckSettings.ts), so the engine runs on them as they are, and the sandbox holds there.
 */

let dataDir: string;
let deps: AppDeps;
const database = { id: 3, account_id: 2, name: 'shop' } as DatabaseRow;
const table = { id: 1, account_id: 2, database_id: 3, name: 'events', schema_json: '[]' } as TableRow;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'duck-on-plane-'));
  deps = { config: { dataDir } as Config } as AppDeps;
  const plane = duckPlane(deps);
  await plane.createDatabase(database);
  await plane.transaction(database, (tx) =>
    tx.append(
      table,
      [
        { time: 1700000000, action: 'buy', amount: 7 },
        { time: 1700000060, action: 'buy', amount: 3 },
        { time: 1700000120, action: 'view', amount: 2 },
      ].map((r) => prepareRecord(r)),
      1,
    ),
  );
});
afterAll(async () => {
  await closeDuckFiles();
  rmSync(dataDir, { recursive: true, force: true });
});

const engine = () =>
  duckQueryEngine((db, work) => withDuckConnection(deps, db, work), { memoryLimitBytes: duckLimits.memoryLimitBytes });

it('runs a query job on the plane’s file, with integer division as on the SQLite engine', async () => {
  const msgpackPath = join(dataDir, 'result.msgpack');
  const outcome = await engine().run(
    'SELECT action, SUM(amount) / 2 AS half FROM events GROUP BY action ORDER BY action',
    {
      database,
      msgpackPath,
      gzipPath: `${msgpackPath}.gz`,
      nowMs: 0,
      maxResultBytes: 1 << 20,
      timeLimitSeconds: 10,
    },
    new AbortController().signal,
  );
  expect(outcome.numRecords).toBe(2);
  expect(unpackMultiple(gunzipSync(readFileSync(`${msgpackPath}.gz`)))).toEqual([
    ['buy', 5],
    ['view', 1],
  ]);
});

it('refuses the plane’s helper tables and file readers, naming them', async () => {
  await expect(engine().inspect(database, 'SELECT * FROM "_svc$tables"')).rejects.toThrow(QueryRefused);
  await expect(engine().inspect(database, "SELECT * FROM read_csv('/etc/passwd')")).rejects.toThrow(/read_csv/);
});

it('the plane’s files are locked: SQL can neither reach files nor change the settings', async () => {
  await withDuckConnection(deps, database, async (conn) => {
    await expect(conn.run("SELECT * FROM read_csv('/etc/passwd')")).rejects.toThrow(/external access|disabled/i);
    await expect(conn.run('SET enable_external_access = true')).rejects.toThrow(/locked|configuration/i);
    await expect(conn.run("ATTACH '/tmp/other.duckdb' AS other")).rejects.toThrow();
  });
});
