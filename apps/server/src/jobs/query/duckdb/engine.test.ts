import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { unpackMultiple } from 'msgpackr';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseRow } from '../../../data';
import { type DuckTestDatabase, startDuckTestDatabase } from '../../testing/duckDatabase';
import { QueryRefused } from '../tokens';
import { duckQueryEngine } from './engine';

/** The QueryEngine a data plane plugs in: inspect refuses, run writes today's result files. */

let duck: DuckTestDatabase;
const lent: string[] = [];
beforeAll(async () => {
  duck = await startDuckTestDatabase();
  await duck.createTable('events', [['action', 'string']], [[1700000000, 'buy']]);
});
afterAll(() => duck?.close());

const database = { id: 7, account_id: 1, name: 'shop' } as DatabaseRow;
const engine = () =>
  duckQueryEngine(
    async (db, work) => {
      lent.push(db.name);
      return work(duck.connection);
    },
    { memoryLimitBytes: 256 * 1048576 },
  );

it('inspect refuses what the sandbox does not allow, on the database it is given', async () => {
  await expect(engine().inspect(database, 'SELECT * FROM "_svc$tables"')).rejects.toBeInstanceOf(QueryRefused);
  await expect(engine().inspect(database, 'SELECT action FROM shop.events')).resolves.toBeUndefined();
  expect(lent).toEqual(['shop', 'shop']);
});

it('run writes msgpack and its gzip, and answers the schema', async () => {
  const msgpackPath = join(duck.dir, 'engine.msgpack');
  const outcome = await engine().run(
    'SELECT action, count(*) AS n FROM shop.events GROUP BY action',
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
  expect(outcome.schema).toEqual([
    ['action', 'varchar'],
    ['n', 'bigint'],
  ]);
  expect(outcome.numRecords).toBe(1);
  expect(unpackMultiple(gunzipSync(readFileSync(`${msgpackPath}.gz`)))).toEqual([['buy', 1]]);
  expect(outcome.gzipBytes).toBe(readFileSync(`${msgpackPath}.gz`).length);
});
