import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../platform/config';
import type { AppDeps } from '../platform/context';
import { many, sql } from '../platform/storage';
import type { DatabaseRow } from './catalog';
import { closeDuckFiles } from './duckFiles';
import { duckPlane } from './duckPlane';

/**
 * Exactly-once on the DuckDB plane under kill -9 (decision 0031): a process commits transactions that each
 * append 1,000 rows and record a marker in a helper table, reporting each commit once it returned; it is killed
 * with SIGKILL in the middle of the next ones. Reopened, the file holds every reported commit, and rows,
 * markers and figures agree: a transaction landed whole or not at all.
 */

const database: DatabaseRow = {
  id: 7,
  account_id: 3,
  name: 'crash_db',
  delete_protected: 0,
  created_at: 1,
  updated_at: 1,
};

/** The writing process: run with tsx, the data directory as its argument. */
const writer = `
import { duckPlane } from ${JSON.stringify(join(import.meta.dirname, 'duckPlane.ts'))};
import { prepareRecord } from ${JSON.stringify(join(import.meta.dirname, 'tableStore.ts'))};
import { sql } from 'kysely';
const deps = { config: { dataDir: process.argv[1] } };
const database = ${JSON.stringify(database)};
const table = { id: 1, account_id: 3, database_id: 7, name: 'events', type: 'log', schema_json: '[]', count: 0,
  estimated_storage_size: 0, last_log_timestamp: null, counter_updated_at: null, expire_days: null, include_v: 1,
  created_at: 1, updated_at: 1 };
const plane = duckPlane(deps);
await plane.createDatabase(database);
for (let n = 1; ; n++) {
  const records = Array.from({ length: 1000 }, (_, i) => prepareRecord({ time: n, i, label: 'row ' + i }));
  await plane.transaction(database, async (tx) => {
    await tx.ensureTable('_svc$marks', 'n BIGINT PRIMARY KEY');
    await tx.append(table, records, n);
    await sql\`INSERT INTO \${tx.table('_svc$marks')} (n) VALUES (\${n})\`.execute(tx.ex);
  });
  process.stdout.write('committed ' + n + '\\n');
}
`;

describe('DuckDB plane under kill -9', () => {
  let dataDir: string;
  let child: ChildProcess | null = null;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-duck-crash-'));
  });

  afterEach(async () => {
    child?.kill('SIGKILL');
    await closeDuckFiles();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged transaction whole and no part of the one cut off', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', writer, dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const proc = child;
    const acknowledged = await new Promise<number>((resolve, reject) => {
      let last = 0;
      proc.stdout?.setEncoding('utf8').on('data', (text: string) => {
        for (const m of text.matchAll(/committed (\d+)/g)) last = Number(m[1]);
        // Killed while it runs its next transactions, after a few were acknowledged.
        if (last >= 5 && !proc.killed) {
          proc.kill('SIGKILL');
          resolve(last);
        }
      });
      proc.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`The writer stopped by itself (code ${code}).`));
      });
    });
    if (proc.exitCode === null && proc.signalCode === null) await new Promise((resolve) => proc.once('exit', resolve));

    const deps = { config: { dataDir } as Config } as AppDeps;
    const plane = duckPlane(deps);
    const rows = await plane.rows(database, 'events');
    const [figures] = await plane.figures(database);
    const marks = await plane.transaction(database, async (tx) =>
      (await many<{ n: number }>(tx.ex, sql`SELECT n FROM ${tx.table('_svc$marks')} ORDER BY n`)).map((r) => r.n),
    );
    const committed = marks.length;
    expect(committed).toBeGreaterThanOrEqual(acknowledged);
    expect(marks).toEqual(Array.from({ length: committed }, (_, i) => i + 1));
    expect(rows.length).toBe(committed * 1000);
    expect(new Set(rows.map((r) => r.time)).size).toBe(committed);
    expect(figures).toMatchObject({ name: 'events', row_count: committed * 1000, max_time: committed });
    // A child process that compiles its TypeScript first: longer than the default on a loaded machine.
  }, 60_000);
});
