import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type QueryTestDatabase, startQueryTestDatabase } from '../../testing/queryDatabase';
import { ResultWriter } from '../resultWriter';
import { runPostgresQuery } from './runQuery';

/**
 * Results of wide rows stay bounded in memory: a FETCH holds about its byte budget whatever the width, and the
 * result size cap ends a query within a batch of it. (Before, each FETCH took 10,000 rows: two concurrent
 * queries of 100 KB rows held gigabytes and the node ran out of memory.)
 */

let pg: QueryTestDatabase;
let schema: string;
let dir: string;

beforeAll(async () => {
  pg = await startQueryTestDatabase();
  schema = `${pg.prefix}_wide`;
  dir = mkdtempSync(join(tmpdir(), 'svc-wide-'));
  await pg.pool.query(`CREATE SCHEMA "${schema}";
    CREATE TABLE "${schema}".customers (time BIGINT NOT NULL, id BIGINT);
    INSERT INTO "${schema}".customers SELECT 0, i FROM generate_series(1, 30) i;`);
}, 120_000);
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const BUDGET = 2 * 1024 * 1024;
const CAP = 24 * 1024 * 1024;

/** Runs a query as the engine does (rows into a result file under the cap), noting each batch's bytes. */
async function runCapped(sql: string, name: string) {
  const writer = new ResultWriter(join(dir, `${name}.msgpack`), CAP);
  const batches: number[] = [];
  try {
    await runPostgresQuery({
      pool: pg.pool,
      schema,
      database: 'crm',
      sql,
      nowMs: 0,
      timeoutMs: 60_000,
      maxRows: Number.MAX_SAFE_INTEGER,
      batchBytes: BUDGET,
      onRows: (rows) => {
        batches.push(rows.reduce<number>((sum, row) => sum + String(row[0]).length, 0));
        for (const row of rows) writer.write(row);
      },
    });
    return { error: null, batches, rows: writer.rows };
  } catch (e) {
    return { error: (e as Error).message, batches, rows: writer.rows };
  } finally {
    writer.close();
  }
}

it('two concurrent queries of 100 KB rows end at the result cap, each batch within its byte budget', async () => {
  // 27,000 rows of 100 KB: 2.7 GB each, had it been fetched.
  const wide = "SELECT lpad('x', 100000, 'y') AS w FROM customers a, customers b, customers c";
  const results = await Promise.all([runCapped(wide, 'a'), runCapped(wide, 'b')]);
  for (const r of results) {
    expect(r.error).toMatch(/^The result is larger than 24 MiB: add a LIMIT, filter or aggregate\.$/);
    // The cap is met within one batch of it: about 240 rows of 100 KB, not thousands.
    expect(r.rows).toBeGreaterThan(200);
    expect(r.rows).toBeLessThan(260);
    expect(Math.max(...r.batches)).toBeLessThanOrEqual(BUDGET);
  }
}, 120_000);

it('narrow rows still come thousands to a fetch', async () => {
  const r = await runCapped('SELECT a.id AS w FROM customers a, customers b, customers c', 'narrow');
  expect(r.error).toBeNull();
  expect(r.rows).toBe(27_000);
  // A first small batch, a few growing ones, then 10,000 rows at a time.
  expect(r.batches.length).toBeLessThan(10);
});
