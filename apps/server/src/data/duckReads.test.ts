import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../platform/config';
import type { AppDeps } from '../platform/context';
import { createHarness, type Harness } from '../testing/harness';
import type { DatabaseRow, TableRow } from './catalog';
import { closeDuckFiles, duckFile, duckFileExists, openDuckFileCount } from './duckFiles';
import { duckPlane } from './duckPlane';
import { prepareRecord } from './tableStore';

/**
 * The DuckDB plane's reads from the server go to the worker owning the file (decision 0031): the request loop
 * opens no DuckDB file, and what comes back is what the plane read (bytes as Buffers, figures, newest first).
 */

let h: Harness;
const database = { id: 9001, account_id: 1, name: 'owned' } as DatabaseRow;
const table = { id: 1, account_id: 1, database_id: 9001, name: 'events', schema_json: '[]' } as TableRow;

beforeAll(async () => {
  h = await createHarness();
  // Written by a thread without a pool (as a worker task would be), then closed: the file has no owner yet.
  const here = duckPlane({ config: { dataDir: h.dataDir } as Config } as AppDeps);
  await here.createDatabase(database);
  await here.transaction(database, (tx) =>
    tx.append(
      table,
      [
        { time: 10, action: 'buy', blob: Buffer.from([1, 2, 3]) },
        { time: 20, action: 'view', blob: Buffer.from([4]) },
      ].map((r) => prepareRecord(r)),
      5,
    ),
  );
  await closeDuckFiles();
});
afterAll(() => h?.close());

it('reads figures, tails and rows in the owning worker, never in the request loop', async () => {
  const plane = duckPlane(h.deps);
  const figures = await plane.figures(database);
  expect(figures.map((m) => [m.name, Number(m.row_count), Number(m.max_time)])).toEqual([['events', 2, 20]]);
  const tail = await plane.tail(database, 'events', 1);
  expect(tail?.rows).toEqual([{ time: 20, action: 'view', blob: Buffer.from([4]) }]);
  expect(Buffer.isBuffer(tail?.rows[0]?.blob)).toBe(true);
  const rows = await plane.rows(database, 'events');
  expect(rows.map((r) => [r.time, r.action, Buffer.isBuffer(r.blob) && [...(r.blob as Buffer)]])).toEqual([
    [10, 'buy', [1, 2, 3]],
    [20, 'view', [4]],
  ]);
  expect(await plane.tail(database, 'missing', 5)).toBeNull();
  expect(openDuckFileCount()).toBe(0);
});

it('creates a new database’s file in a worker, and a database without a file reads as empty', async () => {
  const plane = duckPlane(h.deps);
  const fresh = { id: 9002, account_id: 1, name: 'fresh' } as DatabaseRow;
  expect(await plane.figures(fresh)).toEqual([]);
  expect(await plane.rows(fresh, 'events')).toEqual([]);
  expect(duckFileExists(duckFile(h.dataDir, 1, 9002))).toBe(false);
  await plane.createDatabase(fresh);
  expect(duckFileExists(duckFile(h.dataDir, 1, 9002))).toBe(true);
  expect(await plane.figures(fresh)).toEqual([]);
  expect(openDuckFileCount()).toBe(0);
});
