import { DuckDBInstance } from '@duckdb/node-api';
import { type DatabaseRow, requireDatabase } from '../src/data/catalog';
import { duckFile } from '../src/data/duckFiles';
import { appendRows } from '../src/data/tableStore';
import { translateToDuckDB } from '../src/jobs/query/duckdb/translate';
import { translateToPostgres } from '../src/jobs/query/postgres/translate';
import { duckSandboxSettings } from '../src/platform/duckSettings';
import { customerSchema, type PostgresStorage } from '../src/platform/storage';
import { benchApp, expectOk, median, report, seconds } from './common';

/**
 * Query-job overhead: a 1 M-row aggregate issued as a presto job over the API (queued, run by the engine of
 * the backend, result written and then downloaded as JSON), against the same translated SQL run directly:
 * on the DuckDB file opened with the query sandbox's settings once the app has stopped (one process may open a DuckDB file once), or on PostgreSQL on
 * one connection of the pool with the database's schema on its search path. One warm-up run of each (it
 * starts the query process or installs the query functions, and fills the caches), then the median of 5.
 */

const ROWS = Number(process.env.BENCH_QUERY_ROWS ?? 1_000_000);
const RUNS = 5;
const QUERY =
  'SELECT action, COUNT(*) AS n, SUM(amount) AS total, AVG(amount) AS mean, COUNT(DISTINCT customer) AS customers FROM events GROUP BY action ORDER BY action';

const bench = await benchApp();

/** DuckDB's BIGINT and HUGEINT come as bigint; the job's JSON has numbers. */
const plainNumber = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v);

/** The query's rows straight from the backend, without the job around it. */
async function directRun(database: DatabaseRow): Promise<unknown[]> {
  const storage = bench.deps.storage;
  if (storage.backend === 'postgres') {
    const client = await (storage as PostgresStorage).pool.connect();
    try {
      await client.query(`SET search_path = ${customerSchema(database.id)}, svc_fn`);
      const sql = translateToPostgres(QUERY, { database: 'bench', nowMs: Date.now() });
      return (await client.query({ text: sql, rowMode: 'array' })).rows;
    } finally {
      await client.query('RESET search_path');
      client.release();
    }
  }
  const file = duckFile(bench.dataDir, bench.account.accountId, database.id);
  const instance = await DuckDBInstance.create(file, duckSandboxSettings(4 * 1024 ** 3));
  const connection = await instance.connect();
  try {
    const sql = translateToDuckDB(QUERY, { database: 'bench', nowMs: Date.now() });
    return (await connection.runAndReadAll(sql)).getRows().map((row) => row.map((v) => plainNumber(v)));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
try {
  await expectOk(bench.call('POST', '/v3/database/create/bench'));
  await expectOk(bench.call('POST', '/v3/table/create/bench/events/log'));
  const database = await requireDatabase(bench.deps.storage.db, bench.account.accountId, 'bench');
  const actions = ['view', 'click', 'purchase', 'share'];
  for (let at = 0; at < ROWS; at += 50_000) {
    const rows = Array.from({ length: Math.min(50_000, ROWS - at) }, (_, j) => {
      const i = at + j;
      return { time: 1700000000 + i, customer: `c${i % 20_000}`, action: actions[i % 4], amount: (i % 1000) / 4 };
    });
    await appendRows(bench.deps, database, 'events', rows);
  }

  const job: number[] = [];
  let answer = '';
  for (let run = 0; run <= RUNS; run++) {
    const started = process.hrtime.bigint();
    const issued = await expectOk(
      bench.call('POST', '/v3/job/issue/presto/bench', {
        body: new URLSearchParams({ query: QUERY }),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    const status = await bench.app.services.jobs.whenSettled(Number(issued.job_id));
    if (status !== 'success') throw new Error(`The query job ended ${status}.`);
    const res = await bench.call('GET', `/v3/job/result/${issued.job_id}?format=json`);
    answer = await res.text();
    if (run > 0) job.push(seconds(started));
  }

  // The DuckDB file is the app's (its worker owns it) until the app stops.
  if (bench.deps.storage.backend === 'sqlite') await bench.app.stop();
  const direct: number[] = [];
  let directRows: unknown[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const started = process.hrtime.bigint();
    directRows = await directRun(database);
    if (run > 0) direct.push(seconds(started));
  }
  const jobRows = answer
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
  if (JSON.stringify(jobRows) !== JSON.stringify(directRows)) {
    throw new Error(`The job and the direct run disagree: ${JSON.stringify(jobRows)} vs ${JSON.stringify(directRows)}`);
  }
  const jobSeconds = median(job);
  const directSeconds = median(direct);
  process.stderr.write(`query: job ${jobSeconds.toFixed(3)} s, direct ${directSeconds.toFixed(3)} s\n`);
  report({
    rows: ROWS,
    query: QUERY,
    jobSeconds,
    directSeconds,
    queryOverheadRatio: jobSeconds / directSeconds,
    runs: RUNS,
  });
} finally {
  bench.close();
}
