import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { encodePart } from '@svc/bulk-format';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { PostgresStorage } from '../src/platform/storage';
import { bareAppenderLoop } from './bareDuck';
import { benchApp, expectOk, report, seconds } from './common';
import { postgresCpu, processCpuMicros } from './cpuTime';

/**
 * Bulk import perform + commit, timed from the perform request to the end of the commit, against a bare
 * loop inserting the same rows, in one transaction, into a table of the same typed columns with the same
 * `time` index: one DuckDB appender in one transaction on the DuckDB plane (DuckDB keeps no index on `time`: its zone maps serve), or on PostgreSQL
 * one COPY FROM STDIN of all the rows (text format, as the data plane copies) on the bench's database.
 * Each run is a fresh app (so its workers start cold, as a server's first import does) with its own bare loop
 * just before; the run with the median ratio is reported, since one run on a shared 2-core machine can be off by
 * a tenth either way. On PostgreSQL the CPU each side took (this process, all its threads, and the server's
 * processes) is measured too: on a machine shared with other work, CPU per row does not follow the neighbours.
 */

const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 300_000);
const PART_ROWS = 100_000;
const RUNS = Number(process.env.BENCH_BULK_RUNS ?? 3);

type Row = { time: number; user: string; action: string; amount: number; count: number; page: string };

const makeRows = (): Row[] =>
  Array.from({ length: ROWS }, (_, i) => ({
    time: 1700000000 + i,
    user: `user_${i % 5000}`,
    action: i % 3 === 0 ? 'click' : 'view',
    amount: i * 0.25,
    count: i % 97,
    page: `/products/${i % 800}`,
  }));

async function barePostgresLoop(pool: pg.Pool, rows: Row[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query(`CREATE TABLE bare (time BIGINT NOT NULL, "user" TEXT, action TEXT, amount DOUBLE PRECISION,
      count BIGINT, page TEXT); CREATE INDEX bare_time ON bare (time)`);
    const started = process.hrtime.bigint();
    await client.query('BEGIN');
    // The bench's values hold no character COPY's text format escapes.
    const text = rows.map((r) => `${r.time}\t${r.user}\t${r.action}\t${r.amount}\t${r.count}\t${r.page}\n`);
    const pieces = function* () {
      for (let at = 0; at < text.length; at += 10_000) yield text.slice(at, at + 10_000).join('');
    };
    await pipeline(
      Readable.from(pieces()),
      client.query(copyFrom('COPY bare (time, "user", action, amount, count, page) FROM STDIN')),
    );
    await client.query('COMMIT');
    const elapsed = seconds(started);
    await client.query('DROP TABLE bare');
    return ROWS / elapsed;
  } finally {
    client.release();
  }
}

/** The DuckDB plane's bare loop (bareDuck.ts): one appender in one transaction, into a file of its own. */
const bareDuckLoop = (dir: string, rows: Row[]) =>
  bareAppenderLoop(dir, ROWS, (appender) => {
    for (const r of rows) {
      appender.appendBigInt(BigInt(r.time));
      appender.appendVarchar(r.user);
      appender.appendVarchar(r.action);
      appender.appendDouble(r.amount);
      appender.appendBigInt(BigInt(r.count));
      appender.appendVarchar(r.page);
      appender.endRow();
    }
  });

/** CPU used per row, in µs: by this process (all threads) and by the PostgreSQL server. */
interface CpuPerRow {
  node: number;
  postgres: number;
}

/** A stopwatch of the CPU both sides use, or null where the server's CPU cannot be read (SQLite: none). */
async function cpuMeter(pool: pg.Pool | null): Promise<(() => () => CpuPerRow) | null> {
  const server = pool ? await postgresCpu(pool) : null;
  if (!server) return null;
  return () => {
    const [node, postgres] = [processCpuMicros(), server()];
    return () => ({ node: (processCpuMicros() - node) / ROWS, postgres: (server() - postgres) / ROWS });
  };
}

interface Run {
  rows: number;
  bulkImportRowsPerSecond: number;
  performSeconds: number;
  commitSeconds: number;
  bareInsertRowsPerSecond: number;
  bulkImportRatio: number;
  /** PostgreSQL: CPU µs per row of the bare loop, of perform and of commit, and bare ÷ (perform + commit). */
  cpu?: { bare: CpuPerRow; perform: CpuPerRow; commit: CpuPerRow; ratio: number };
}

async function oneRun(): Promise<Run> {
  const bench = await benchApp();
  let rows = makeRows();
  try {
    await expectOk(bench.call('POST', '/v3/database/create/bench'));
    await expectOk(bench.call('POST', '/v3/table/create/bench/imported/log'));
    await expectOk(bench.call('POST', '/v3/bulk_import/create/bench_session/bench/imported'));
    for (let at = 0, n = 0; at < ROWS; at += PART_ROWS, n++) {
      const part = await encodePart(rows.slice(at, at + PART_ROWS));
      await expectOk(
        bench.call('PUT', `/v3/bulk_import/upload_part/bench_session/part${n}`, {
          body: part,
          headers: { 'content-type': 'application/octet-stream' },
        }),
      );
    }
    const storage = bench.deps.storage;
    // Every worker answers once it has loaded, so the bare loop does not share the cores with their start.
    await bench.app.services.workers.broadcast('workers.ready', {});
    const pool = storage.backend === 'postgres' ? (storage as PostgresStorage).pool : null;
    const meter = await cpuMeter(pool);
    const bareCpu = meter?.();
    const bare = pool ? await barePostgresLoop(pool, rows) : await bareDuckLoop(bench.dataDir, rows);
    const bareCpuPerRow = bareCpu?.();
    // The rows are in the parts now; holding them would make every garbage collection of the import slower.
    rows = [];

    const performCpu = meter?.();
    const started = process.hrtime.bigint();
    const { job_id: jobId } = await expectOk(bench.call('POST', '/v3/bulk_import/perform/bench_session'));
    const status = await bench.app.services.jobs.whenSettled(jobId as number);
    if (status !== 'success') throw new Error(`The perform job ended ${status}.`);
    const performSeconds = seconds(started);
    const performed = process.hrtime.bigint();
    const performCpuPerRow = performCpu?.();
    const commitCpu = meter?.();
    await expectOk(bench.call('POST', '/v3/bulk_import/commit/bench_session'));
    const totalSeconds = seconds(started);
    const commitCpuPerRow = commitCpu?.();
    // Run with `node --cpu-prof`: the windows on the monotonic clock of the profiles, to split them by step.
    if (process.execArgv.some((a) => a.startsWith('--cpu-prof'))) {
      const us = (t: bigint) => t / 1000n;
      process.stderr.write(`perform window µs: ${us(started)} ${us(performed)}\n`);
      process.stderr.write(`commit window µs: ${us(performed)} ${us(process.hrtime.bigint())}\n`);
    }
    const shown = await expectOk(bench.call('GET', '/v3/table/show/bench/imported'));
    if (shown.count !== ROWS) throw new Error(`The table has ${shown.count} rows, not ${ROWS}.`);

    const importRate = ROWS / totalSeconds;
    process.stderr.write(`bulk import: ${Math.round(importRate)} rows/s; bare loop ${Math.round(bare)} rows/s\n`);
    const sum = (c: CpuPerRow) => c.node + c.postgres;
    const cpu =
      bareCpuPerRow && performCpuPerRow && commitCpuPerRow
        ? {
            bare: bareCpuPerRow,
            perform: performCpuPerRow,
            commit: commitCpuPerRow,
            ratio: sum(bareCpuPerRow) / (sum(performCpuPerRow) + sum(commitCpuPerRow)),
          }
        : undefined;
    if (cpu) process.stderr.write(`CPU µs per row: ${JSON.stringify(cpu)}\n`);
    return {
      rows: ROWS,
      bulkImportRowsPerSecond: importRate,
      performSeconds,
      commitSeconds: totalSeconds - performSeconds,
      bareInsertRowsPerSecond: bare,
      bulkImportRatio: importRate / bare,
      ...(cpu ? { cpu } : {}),
    };
  } finally {
    bench.close();
  }
}

const runs: Run[] = [];
for (let i = 0; i < RUNS; i++) runs.push(await oneRun());
const byRatio = [...runs].sort((a, b) => a.bulkImportRatio - b.bulkImportRatio);
report({ ...(byRatio[Math.floor(byRatio.length / 2)] as Run), runRatios: runs.map((r) => r.bulkImportRatio) });
