import Database from 'better-sqlite3';
import { databaseFile, requireDatabase } from '../src/data/catalog';
import { appendRows } from '../src/data/tableStore';
import { translate } from '../src/jobs/query/dialect';
import { benchApp, expectOk, median, report, seconds } from './common';

/**
 * Query-job overhead: a 1 M-row aggregate issued as a presto job over the API (queued, run in the
 * query process on a read-only connection, result written and then downloaded as JSON), against the same
 * SQL run directly with better-sqlite3 on a read-only connection to the same file. One warm-up run of
 * each (it starts the query process and fills the page cache), then the median of 5.
 */

const ROWS = Number(process.env.BENCH_QUERY_ROWS ?? 1_000_000);
const RUNS = 5;
const QUERY =
  'SELECT action, COUNT(*) AS n, SUM(amount) AS total, AVG(amount) AS mean, COUNT(DISTINCT user) AS users FROM events GROUP BY action ORDER BY action';

const bench = await benchApp();
try {
  await expectOk(bench.call('POST', '/v3/database/create/bench'));
  await expectOk(bench.call('POST', '/v3/table/create/bench/events/log'));
  const database = await requireDatabase(bench.deps.storage.db, bench.account.accountId, 'bench');
  const actions = ['view', 'click', 'purchase', 'share'];
  for (let at = 0; at < ROWS; at += 50_000) {
    const rows = Array.from({ length: Math.min(50_000, ROWS - at) }, (_, j) => {
      const i = at + j;
      return { time: 1700000000 + i, user: `user_${i % 20_000}`, action: actions[i % 4], amount: (i % 1000) / 4 };
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

  const file = databaseFile(bench.dataDir, bench.account.accountId, database.id);
  const sql = translate(QUERY, 'bench');
  const direct: number[] = [];
  let directRows: unknown[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const started = process.hrtime.bigint();
    const db = new Database(file, { readonly: true });
    directRows = db.prepare(sql).raw().all();
    db.close();
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
