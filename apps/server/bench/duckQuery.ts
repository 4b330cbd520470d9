import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { unpackMultiple } from 'msgpackr';
import { runDuckQuery } from '../src/jobs/query/duckdb/runQuery';
import { duckSandboxSettings } from '../src/platform/duckSettings';
import { median, report, seconds } from './common';

/**
 * Query jobs on DuckDB against DuckDB itself (issue 28): ROWS rows (10 M by default; BENCH_DUCK_ROWS or ROWS)
 * of PROFILES users (50,000; BENCH_DUCK_PROFILES or PROFILES) in the agreed layout, then the four
 * queries, each as a query job through runDuckQuery (checks, translation, streaming into the msgpack file and
 * its gzip) and as the same SQL written natively for DuckDB on the same connection (rows read into JS). One
 * warm-up of each, then the median of RUNS (5) runs, the two interleaved. The answers must match.
 * Target: each job ≤ 1.5 × DuckDB's own time.
 */

const ROWS = Number(process.env.BENCH_DUCK_ROWS ?? process.env.ROWS ?? 10_000_000);
const PROFILES = Number(process.env.BENCH_DUCK_PROFILES ?? process.env.PROFILES ?? 50_000);
const RUNS = Number(process.env.BENCH_DUCK_RUNS ?? 5);
const MEMORY = 4 * 1024 ** 3;

const QUERIES: { name: string; job: string; native: string }[] = [
  {
    name: '`action, COUNT(*), SUM(amount), COUNT(DISTINCT user)` by action',
    job: 'SELECT action, COUNT(*) AS n, SUM(amount) AS total, COUNT(DISTINCT user) AS users FROM events GROUP BY action ORDER BY action',
    native:
      'SELECT action, count(*) AS n, sum(amount) AS total, count(DISTINCT "user") AS users FROM events GROUP BY action ORDER BY action',
  },
  {
    name: `top 10 users by \`SUM(amount)\` (${PROFILES.toLocaleString('en-US')} users)`,
    job: 'SELECT user, SUM(amount) AS spent FROM events GROUP BY user ORDER BY spent DESC, user LIMIT 10',
    native: 'SELECT "user", sum(amount) AS spent FROM events GROUP BY "user" ORDER BY spent DESC, "user" LIMIT 10',
  },
  {
    name: "`COUNT(*) … WHERE amount > 50 AND action = 'buy'` by country",
    job: "SELECT country, COUNT(*) AS n FROM events WHERE amount > 50 AND action = 'buy' GROUP BY country ORDER BY country",
    native:
      "SELECT country, count(*) AS n FROM events WHERE amount > 50 AND action = 'buy' GROUP BY country ORDER BY country",
  },
  {
    name: "daily buckets with `TD_TIME_FORMAT(time, 'yyyy-MM-dd', 'UTC')`",
    job: "SELECT TD_TIME_FORMAT(time, 'yyyy-MM-dd', 'UTC') AS day, COUNT(*) AS n FROM events GROUP BY 1 ORDER BY 1",
    native:
      "SELECT strftime(make_timestamp(time * 1000000), '%Y-%m-%d') AS day, count(*) AS n FROM events GROUP BY 1 ORDER BY 1",
  },
];

async function build(connection: DuckDBConnection): Promise<number> {
  const started = process.hrtime.bigint();
  await connection.run(`CREATE TABLE "_svc$tables" (name VARCHAR PRIMARY KEY, schema_json VARCHAR NOT NULL,
    row_count BIGINT NOT NULL, bytes BIGINT NOT NULL, max_time BIGINT, updated_at BIGINT)`);
  await connection.run(
    'CREATE TABLE events (time BIGINT NOT NULL, "user" VARCHAR, action VARCHAR, amount DOUBLE, country VARCHAR)',
  );
  const span = 90 * 86400;
  for (let at = 0; at < ROWS; at += 1_000_000) {
    const end = Math.min(ROWS, at + 1_000_000);
    await connection.run(`INSERT INTO events SELECT
        1700000000 + i * ${span} // ${ROWS},
        'u' || (hash(i) % ${PROFILES}),
        (['view', 'click', 'buy', 'share'])[1 + (hash(i * 7) % 4)::INTEGER],
        (hash(i * 13) % 10000) / 100.0,
        (['JP', 'US', 'DE', 'FR', 'BR', 'IN', 'GB', 'KR'])[1 + (hash(i * 31) % 8)::INTEGER]
      FROM range(${at}, ${end}) t(i)`);
  }
  const schema = [
    ['user', 'string'],
    ['action', 'string'],
    ['amount', 'double'],
    ['country', 'string'],
  ];
  await connection.run(
    `INSERT INTO "_svc$tables" VALUES ('events', '${JSON.stringify(schema)}', ${ROWS}, 0, NULL, NULL)`,
  );
  await connection.run('CHECKPOINT');
  return seconds(started);
}

const plain = (v: unknown): unknown => (typeof v === 'bigint' ? Number(v) : v);

/** Rows equal, doubles to 9 significant digits (parallel sums may differ in the last bits). */
function same(a: unknown[][], b: unknown[][]): boolean {
  const norm = (rows: unknown[][]) =>
    JSON.stringify(rows.map((r) => r.map((v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : plain(v)))));
  return norm(a) === norm(b);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-duck-query-'));
const instance = await DuckDBInstance.create(join(dir, 'bench.duckdb'), duckSandboxSettings(MEMORY));
const connection = await instance.connect();
try {
  const buildSeconds = await build(connection);
  process.stdout.write(`[duck-query] built ${ROWS.toLocaleString('en-US')} rows in ${buildSeconds.toFixed(1)} s\n`);
  const results = [];
  for (const [index, q] of QUERIES.entries()) {
    const job: number[] = [];
    const native: number[] = [];
    let jobRows: unknown[][] = [];
    let nativeRows: unknown[][] = [];
    for (let run = 0; run <= RUNS; run++) {
      const msgpackPath = join(dir, `q${index}.msgpack`);
      let started = process.hrtime.bigint();
      await runDuckQuery(connection, {
        query: q.job,
        type: 'presto',
        database: 'bench',
        msgpackPath,
        gzipPath: `${msgpackPath}.gz`,
        nowMs: Date.now(),
        maxResultBytes: 1 << 30,
        timeLimitSeconds: 600,
      });
      if (run > 0) job.push(seconds(started));
      jobRows = unpackMultiple(readFileSync(msgpackPath)) as unknown[][];
      started = process.hrtime.bigint();
      const reader = await connection.runAndReadAll(q.native);
      nativeRows = reader.getRows().map((r) => r.map(plain));
      if (run > 0) native.push(seconds(started));
    }
    const result = {
      name: q.name,
      jobSeconds: median(job),
      duckSeconds: median(native),
      ratio: median(job) / median(native),
      same: same(jobRows, nativeRows),
    };
    process.stdout.write(
      `[duck-query] ${q.name}: job ${result.jobSeconds.toFixed(3)} s, DuckDB ${result.duckSeconds.toFixed(3)} s, ${result.ratio.toFixed(2)} ×, answers ${result.same ? 'match' : 'DIFFER'}\n`,
    );
    if (!result.same) {
      process.stdout.write(
        `  job:    ${JSON.stringify(jobRows.slice(0, 3))}\n  native: ${JSON.stringify(nativeRows.slice(0, 3))}\n`,
      );
    }
    results.push(result);
  }
  report({ rows: ROWS, profiles: PROFILES, buildSeconds, queries: results });
} finally {
  connection.closeSync();
  instance.closeSync();
  rmSync(dir, { recursive: true, force: true });
}
