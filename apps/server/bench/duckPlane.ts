import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseRow, TableRow } from '../src/data/catalog';
import { closeDuckFiles, duckFile } from '../src/data/duckFiles';
import { duckPlane } from '../src/data/duckPlane';
import type { DataPlane } from '../src/data/plane';
import type { ColumnSummary, RowBlock } from '../src/data/rowBlocks';
import { ManualClock } from '../src/platform/clock';
import type { Config } from '../src/platform/config';
import type { AppDeps } from '../src/platform/context';
import { memoryLogger } from '../src/platform/logger';
import { bareAppenderLoop } from './bareDuck';
import { report, seconds } from './common';

/**
 * The DuckDB data plane's write path on its own (issue 28, decision 0031): bulk import's commit step
 * (`appendBlocks` of staged blocks, in one transaction with the figures) against a bare DuckDB appender loop
 * writing the same rows into a table of the same columns; then the disk the file takes for those rows (the
 * SQLite data plane it was once compared with is gone, decision 0053; docs/benchmarks.md keeps its figures). No
 * app, no control database: only the plane.
 */

const ROWS = Number(process.env.BENCH_DUCK_ROWS ?? 1_000_000);
const BLOCK = 100_000;

function blocks(): RowBlock[] {
  const out: RowBlock[] = [];
  for (let at = 0; at < ROWS; at += BLOCK) {
    const n = Math.min(BLOCK, ROWS - at);
    const block: RowBlock = {
      columns: ['user', 'action', 'amount', 'count', 'page'],
      time: [],
      values: [[], [], [], [], []],
    };
    for (let r = 0; r < n; r++) {
      const i = at + r;
      block.time.push(1700000000 + i);
      block.values[0]?.push(`user_${i % 50000}`);
      block.values[1]?.push(i % 3 === 0 ? 'buy' : 'view');
      block.values[2]?.push(i * 0.25);
      block.values[3]?.push(i % 97);
      block.values[4]?.push(`/products/${i % 800}`);
    }
    out.push(block);
  }
  return out;
}

const summary: ColumnSummary = [
  ['user', 'string', false],
  ['action', 'string', false],
  ['amount', 'double', true],
  ['count', 'long', false],
  ['page', 'string', false],
];

/** The bare loop (bareDuck.ts) over the same blocks. */
const bareLoop = (dir: string, data: RowBlock[]) =>
  bareAppenderLoop(dir, ROWS, (appender) => {
    for (const b of data) {
      const [user, action, amount, count, page] = b.values as [string[], string[], number[], number[], string[]];
      for (let r = 0; r < b.time.length; r++) {
        appender.appendBigInt(BigInt(b.time[r] as number));
        appender.appendVarchar(user[r] as string);
        appender.appendVarchar(action[r] as string);
        appender.appendDouble(amount[r] as number);
        appender.appendBigInt(BigInt(count[r] as number));
        appender.appendVarchar(page[r] as string);
        appender.endRow();
      }
    }
  });

async function planeCommit(plane: DataPlane, database: DatabaseRow, data: RowBlock[]): Promise<number> {
  await plane.createDatabase(database);
  const table: TableRow = {
    id: 1,
    account_id: 1,
    database_id: database.id,
    name: 'events',
    type: 'log',
    schema_json: '[]',
    count: 0,
    estimated_storage_size: 0,
    last_log_timestamp: null,
    counter_updated_at: null,
    expire_days: null,
    include_v: 1,
    created_at: 1,
    updated_at: 1,
  };
  const started = process.hrtime.bigint();
  await plane.transaction(database, (tx) => tx.appendBlocks(table, summary, data, 1));
  return ROWS / seconds(started);
}

const fileBytes = (file: string, companions: string[]) =>
  [file, ...companions.map((c) => `${file}${c}`)].reduce((n, f) => {
    try {
      return n + statSync(f).size;
    } catch {
      return n;
    }
  }, 0);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-duck-'));
  const deps = {
    config: { dataDir: dir } as Config,
    clock: new ManualClock(0),
    logger: memoryLogger(),
  } as unknown as AppDeps;
  const database = (id: number): DatabaseRow => ({
    id,
    account_id: 1,
    name: `db${id}`,
    delete_protected: 0,
    created_at: 1,
    updated_at: 1,
  });
  try {
    const data = blocks();
    const bare = await bareLoop(dir, data);
    const duck = await planeCommit(duckPlane(deps), database(1), data);
    await closeDuckFiles();
    const duckBytes = fileBytes(duckFile(dir, 1, 1), ['.wal']);
    report({
      rows: ROWS,
      bareAppenderRowsPerSecond: Math.round(bare),
      duckCommitRowsPerSecond: Math.round(duck),
      duckShareOfBare: duck / bare,
      duckBytes,
      duckBytesPer10MRows: Math.round((duckBytes / ROWS) * 10_000_000),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
