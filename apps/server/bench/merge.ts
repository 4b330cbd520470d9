import { createTableRow, dataPlane, type PreparedRecord, requireDatabase } from '../src/data';
import { benchApp, benchBackend, expectOk, seconds } from './common';

/**
 * The data plane's merge by key (warehouse sync's dedup mode) against a plain append of the same rows, on the
 * backend of SVC_BENCH_BACKEND: a table of 100,000 rows takes 100,000 records (half replace rows of existing
 * keys, half are new) in batches of 5,000 in one transaction, as a sync run lands them.
 * Run: `npx tsx bench/merge.ts` in apps/server (with SVC_BENCH_BACKEND=postgres and SVC_TEST_PG_URL for PostgreSQL).
 */

const ROWS = 100_000;
const BATCH = 5_000;

const record = (id: number, version: number): PreparedRecord => ({
  time: 1_700_000_000 + id,
  values: [
    ['id', id],
    ['name', `customer ${id} v${version}`],
    ['amount', id * 1.25 + version],
    ['tier', id % 3 === 0 ? 'gold' : 'silver'],
  ],
});

async function main() {
  const b = await benchApp();
  try {
    await expectOk(b.call('POST', '/v3/database/create/bench_merge'));
    const database = await requireDatabase(b.deps.storage.db, b.account.accountId, 'bench_merge');
    const plane = dataPlane(b.deps);
    const tables = new Map<string, Awaited<ReturnType<typeof createTableRow>>>();
    const land = async (table: string, records: PreparedRecord[], merge: boolean) => {
      const row = tables.get(table) ?? (await createTableRow(b.deps, database, table, []));
      tables.set(table, row);
      const started = process.hrtime.bigint();
      await plane.transaction(database, async (t) => {
        for (let at = 0; at < records.length; at += BATCH) {
          const batch = records.slice(at, at + BATCH);
          if (merge) await t.merge(row, batch, ['id'], Date.now());
          else await t.append(row, batch, Date.now());
        }
      });
      return seconds(started);
    };
    const first = Array.from({ length: ROWS }, (_, i) => record(i + 1, 1));
    // Half the keys again (every other one), half new ones past the first 100,000.
    const second = Array.from({ length: ROWS }, (_, i) => (i % 2 === 0 ? record(i + 1, 2) : record(ROWS + i + 1, 2)));

    // A warm-up of both paths first (JIT, prepared statements, the workers starting): not counted.
    await land('warm_append', first.slice(0, 20_000), false);
    await land('warm_merge', first.slice(0, 20_000), true);
    await land('appended', first, false);
    const append = await land('appended', second, false);
    await land('merged', first, true);
    const merge = await land('merged', second, true);
    const rows = (await plane.rows(database, 'merged')).length;
    if (rows !== ROWS + ROWS / 2) throw new Error(`merged table has ${rows} rows`);
    const result = {
      backend: benchBackend(),
      rows: ROWS,
      appendSeconds: Math.round(append * 100) / 100,
      mergeSeconds: Math.round(merge * 100) / 100,
      mergeRowsPerSecond: Math.round(ROWS / merge),
      appendRowsPerSecond: Math.round(ROWS / append),
    };
    console.log(
      `${result.backend}: append ${result.appendRowsPerSecond} rows/s, merge ${result.mergeRowsPerSecond} rows/s (${ROWS} rows into ${ROWS}, half replacing)`,
    );
    console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  } finally {
    b.close();
  }
}

await main();
process.exit(0);
