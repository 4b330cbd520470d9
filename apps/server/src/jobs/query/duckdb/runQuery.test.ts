import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DuckTestDatabase, startDuckTestDatabase } from '../../testing/duckDatabase';
import { QueryRefused } from '../tokens';
import { runDuckQuery } from './runQuery';

/** The runner's limits (bytes, time, kill, memory) and the sandbox's refusals, on a real DuckDB file. */

let duck: DuckTestDatabase;
beforeAll(async () => {
  duck = await startDuckTestDatabase(128 * 1048576);
  await duck.createTable(
    'events',
    [
      ['user', 'string'],
      ['n', 'long'],
    ],
    [
      [1700000000, 'ann', 1],
      [1700000060, 'bob', 2],
    ],
  );
  // Made by the test's own connection, outside the sandboxed queries: 3,000 rows of 10 kB each.
  await duck.connection.run(`CREATE TABLE wide AS SELECT range AS time, repeat('x', 10000) AS payload, range % 50 AS n
    FROM range(3000)`);
  await duck.connection.run(
    `INSERT INTO "_svc$tables" VALUES ('wide', '[["payload","string"],["n","long"]]', 3000, 0, NULL, NULL)`,
  );
}, 60_000);
afterAll(() => duck?.close());

const SLOW = 'SELECT count(*) FROM wide a, wide b, wide c WHERE a.n + b.n + c.n = -1';

describe('limits', () => {
  it('stops at the byte cap while the rows are fetched, with the same error as the SQLite engine', async () => {
    const started = performance.now();
    const error = await duck.query('SELECT * FROM wide', { maxResultBytes: 1048576 }).catch((e: Error) => e);
    expect((error as Error).message).toBe('The result is larger than 1 MiB: add a LIMIT, filter or aggregate.');
    expect(performance.now() - started).toBeLessThan(10_000);
    // What was written before the cap stays under it: the remaining rows were never converted.
    const written = statSync(join(duck.dir, 'result-1.msgpack')).size;
    expect(written).toBeLessThanOrEqual(1048576);
    // The connection serves the next query.
    expect((await duck.query('SELECT count(*) AS n FROM wide')).rows).toEqual([[3000]]);
  });

  it('stops a query past its time limit by interrupting it', async () => {
    const started = performance.now();
    const error = await duck.query(SLOW, { timeLimitSeconds: 1 }).catch((e: Error) => e);
    expect((error as Error).message).toBe('Stopped: time limit of 1 s exceeded.');
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await duck.query('SELECT count(*) AS n FROM events')).rows).toEqual([[2]]);
  });

  it('a kill interrupts the running query and rejects with the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('Killed on request.');
    const running = duck.query(SLOW, { signal: controller.signal });
    // Killed once the runner has the query in hand (the listener is in place, or the check after it sees the
    // abort): the same interrupt the time limit above uses on a running query.
    setImmediate(() => controller.abort(reason));
    const started = performance.now();
    await expect(running).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await duck.query('SELECT count(*) AS n FROM events')).rows).toEqual([[2]]);
  });

  it('a kill that comes while the query is being started still stops it', async () => {
    // An interrupt sent before the engine has the query is lost; the runner repeats it until the query stops.
    for (const delayMs of [0, 1, 2, 3, 5, 8, 13]) {
      const controller = new AbortController();
      const reason = new Error(`Killed after ${delayMs} ms.`);
      const running = duck.query(SLOW, { signal: controller.signal, timeLimitSeconds: 600 });
      setTimeout(() => controller.abort(reason), delayMs);
      await expect(running).rejects.toBe(reason);
    }
    expect((await duck.query('SELECT count(*) AS n FROM events')).rows).toEqual([[2]]);
  });

  it('a query needing more memory than a query job may use fails, naming the limit', async () => {
    const small = await startDuckTestDatabase(32 * 1048576);
    try {
      await small.connection.run('CREATE TABLE big (time BIGINT NOT NULL, payload VARCHAR)');
      for (let batch = 0; batch < 10; batch++) {
        await small.connection.run(
          `INSERT INTO big SELECT range, repeat('x', 10000) FROM range(${batch * 1000}, ${batch * 1000 + 1000})`,
        );
      }
      const error = await small
        .query('SELECT array_agg(payload) AS everything FROM big', { memoryLimitBytes: 32 * 1048576 })
        .catch((e: Error) => e);
      expect((error as Error).message).toMatch(/more than the 32 MiB of memory a query job may use/);
    } finally {
      small.close();
    }
  }, 60_000);
});

describe('sandbox', () => {
  const refused = async (sql: string, type: 'presto' | 'hive' = 'presto') => {
    const error = await duck.query(sql, { type }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(QueryRefused);
    return (error as Error).message;
  };

  it.each([
    ['SELECT * FROM "_svc$tables"', /_svc\$tables is a table of the service/],
    ['SELECT t.name FROM events e JOIN "_svc$tables" t ON true', /_svc\$tables is a table of the service/],
    ['WITH x AS (SELECT * FROM "_svc$tables") SELECT * FROM x', /_svc\$tables is a table of the service/],
    ["SELECT * FROM read_csv('/etc/passwd')", /Reading files \(read_csv\) is not allowed/],
    ["SELECT * FROM '/etc/passwd'", /Reading files \(\/etc\/passwd\) is not allowed/],
    ["SELECT * FROM glob('*')", /Reading files \(glob\) is not allowed/],
    ["SELECT 'x'.read_text()", /Qualified function names are not allowed/],
    ['SELECT * FROM information_schema.tables', /System catalogs \(information_schema\) cannot be read/],
    ['SELECT * FROM system.main.duckdb_tables', /system.main.duckdb_tables cannot be read/],
    ['SELECT * FROM other.events', /other.events cannot be read/],
    ['SELECT * FROM duckdb_tables', /duckdb_tables cannot be read/],
    ['SELECT * FROM duckdb_settings()', /function duckdb_settings is not supported/],
    ["SELECT getenv('HOME')", /function getenv is not supported/],
    ["SELECT current_setting('memory_limit')", /function current_setting is not supported/],
    ['INSTALL httpfs', /INSTALL is not allowed: queries cannot install or load extensions/],
    ['LOAD httpfs', /LOAD is not allowed/],
    ["ATTACH '/tmp/other.duckdb' AS other", /ATTACH is not allowed/],
    ["COPY events TO '/tmp/out.csv'", /COPY is not allowed: queries cannot read or write files/],
    ["EXPORT DATABASE '/tmp/out'", /EXPORT is not allowed/],
    ["SET memory_limit = '10GB'", /SET is not allowed/],
    ['PRAGMA database_list', /PRAGMA is not allowed/],
    ['SELECT 1; SELECT 2', /exactly one statement/],
    ['DELETE FROM events', /Queries may only read data/],
    ['SELECT $$x$$', /Dollar-quoted text/],
  ])('%s', async (sql, message) => {
    expect(await refused(sql)).toMatch(message);
  });

  it('lets a WITH query take a table-like name that is no relation of the engine', async () => {
    expect((await duck.query('WITH columns AS (SELECT n FROM events) SELECT max(n) AS top FROM columns')).rows).toEqual(
      [[2]],
    );
    expect(await refused('WITH duckdb_tables AS (SELECT 1 AS x) SELECT * FROM duckdb_tables')).toMatch(
      /reserved by the engine/,
    );
  });

  it('does not run on an instance opened without the sandbox settings', async () => {
    const open = await DuckDBInstance.create(':memory:');
    const connection = await open.connect();
    try {
      const error = await runDuckQuery(connection, {
        query: 'SELECT 1',
        type: 'presto',
        database: 'db',
        msgpackPath: join(duck.dir, 'unsandboxed.msgpack'),
        gzipPath: join(duck.dir, 'unsandboxed.msgpack.gz'),
        nowMs: 0,
        maxResultBytes: 1000,
        timeLimitSeconds: 5,
      }).catch((e: Error) => e);
      expect((error as Error).message).toMatch(/not opened with the query sandbox settings/);
    } finally {
      connection.closeSync();
      open.closeSync();
    }
  });

  it('the instance itself refuses files and setting changes', async () => {
    await expect(duck.connection.run("SELECT * FROM read_csv('/etc/hostname')")).rejects.toThrow(/disabled/i);
    await expect(duck.connection.run("SET memory_limit = '10GB'")).rejects.toThrow(/locked/i);
  });
});
