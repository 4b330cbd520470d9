// The journey engine with its storage: 100,000 profiles (PROFILES=…), the engine's scenario journey, states
// read from and written to the real control database (SQLite by default, PostgreSQL with
// SVC_BENCH_BACKEND=postgres and SVC_TEST_PG_URL) as `runJourneyNow` does: only the profiles that may move are
// read (decision 0040), the outcome is saved in parts of 1,000 profiles (without the pauses it leaves between
// parts on SQLite). Segment membership comes from in-memory sets, so segment evaluation (the audiences
// feature's SQL) is not part of the figure; a run whose inputs are unchanged keeps the last run's memberships
// (decision 0046), as runPopulationFor does when membershipInputs (a few rows of the control database) says
// nothing they are evaluated from changed; the other idle run compares freshly evaluated sets. Then the statistics
// of five windows, counted as the statistics route counts them (the whole days from the day counts the runs keep,
// decision 0054, the parts of days at a window's ends from their counts per run instant, decision 0057; runs happen
// at noon, so the last three windows start or end inside a day with a run), the first page of the Profiles list, and
// the size on disk of the journey engine's tables.
// Run: `node --max-semi-space-size=64 --import tsx bench/journeyEngine.ts` in apps/server (the young generation the
// server's worker threads have, platform/workerPool.ts, where runs happen; plain `npx tsx` measures V8's default).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shapeStatistics } from '@svc/journey-engine';
import { SEG, scenarioJourney } from '../../../packages/journey-engine/src/testing/scenario';
import { listCustomers } from '../src/journey-engine/customers';
import { statisticsTally } from '../src/journey-engine/figures';
import { moveAndSave } from '../src/journey-engine/move';
import { evaluatedPopulation, type KeptRuns, keptPopulation, type RunPopulation } from '../src/journey-engine/movers';
import { insertId, many, sql } from '../src/platform/storage';
import { benchBackend, benchStorage } from './common';

const N = Number(process.env.PROFILES ?? 100_000);
const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-engine-'));
const storage = await benchStorage(dir);
const db = storage.db;
const accountId = await insertId(db, sql`INSERT INTO accounts (name, created_at) VALUES ('bench', 0) RETURNING id`);
const journey = scenarioJourney();
const journeyId = await insertId(
  db,
  sql`INSERT INTO journeys (account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
        updated_at)
      VALUES (${accountId}, '1', '1', 'bench', 'launched', 0, ${JSON.stringify(journey)}, 0, 0) RETURNING id`,
);
const keys = Array.from({ length: N }, (_, i) => String(i));
const segments = new Map<string, Set<string>>([
  [SEG.entry, new Set(keys)],
  [SEG.vip, new Set(keys.filter((_, i) => i % 3 === 0))],
]);
const isMember = (segmentId: string, key: string) => segments.get(segmentId)?.has(key) ?? false;

const INPUTS = 'bench-inputs';
/** What the runs keep from one to the next, as a node's services would (`deps.services.keptRuns`). */
const kept: KeptRuns = new Map();
/** The columns the scenario's A/B test hashes, read for the profiles of each batch (as population.ts reads them). */
const columns = async (ks: string[]) => ks.map((key) => ({ key, columns: { customer_id: `C${key}` } }));
/**
 * The memberships evaluated for the run (`inputs`: what they were evaluated from, null when not known, so the
 * run compares them with the last run's), or ('kept') those the journey's last run kept.
 */
function population(how: 'kept' | string | null): RunPopulation {
  if (how !== 'kept') {
    // Freshly evaluated sets, as a run that evaluates gets them (the same objects would compare as unchanged).
    const members = new Map([...segments].map(([id, set]) => [id, new Set(set)]));
    return evaluatedPopulation({ keys, members, isMember }, how, columns);
  }
  const fromKept = keptPopulation(kept, journeyId, journey, INPUTS, columns);
  if (!fromKept) throw new Error('The last run kept no memberships.');
  return fromKept;
}

async function timedRun(label: string, at: number, how: 'kept' | string | null) {
  const t0 = performance.now();
  const input = {
    accountId,
    journeyId,
    journey,
    pauses: [],
    population: population(how),
    at,
    trigger: 'schedule' as const,
    kept,
  };
  const moved = await moveAndSave(storage, input);
  const row = {
    label,
    totalMs: Math.round(performance.now() - t0),
    looked: moved.looked,
    changed: moved.counts.changed,
    events: moved.counts.events,
    // The process's peak resident memory so far (the runs hold the population and the states they read).
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    // The JavaScript heap in use right after the run (the population, the kept memberships and what is left).
    heapMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  };
  process.stdout.write(
    `${row.label.padEnd(32)} ${String(row.totalMs).padStart(6)} ms  looked at ${row.looked}, ${row.changed} states, ${row.events} events, peak RSS ${row.peakRssMb} MB, heap after ${row.heapMb} MB\n`,
  );
  return row;
}

const t = Date.UTC(2026, 0, 1);
/** Runs happen at noon, so a window can start or end inside a day that has a run. */
const NOON = DAY / 2;
const rows = [
  await timedRun('everyone enters (day 0)', t + NOON, null),
  await timedRun('nobody moves, compared (day 1)', t + DAY + NOON, INPUTS),
  await timedRun('nobody moves, kept (day 2)', t + 2 * DAY + NOON, 'kept'),
  await timedRun('wait ends (day 3)', t + 3 * DAY + NOON, 'kept'),
];

/** The statistics of a window as the route counts them (figures.ts, in the worker), after the three runs. */
async function timedStatistics(label: string, window: { from: number; to: number }) {
  const t0 = performance.now();
  const stats = shapeStatistics(
    String(journeyId),
    journey,
    await statisticsTally(db, accountId, journeyId, window),
    window,
  );
  const ms = Math.round(performance.now() - t0);
  process.stdout.write(`statistics, ${label.padEnd(24)} ${String(ms).padStart(5)} ms  entered ${stats.entered}\n`);
  return { label, ms, entered: stats.entered };
}
const statistics = [
  await timedStatistics('the whole journey', { from: t, to: t + 4 * DAY - 1 }),
  await timedStatistics('day 3 only', { from: t + 3 * DAY, to: t + 4 * DAY - 1 }),
  // A window that starts inside a day: that day's part per run instant (everyone's entry), the days after from the
  // day counts.
  await timedStatistics('from day 0, 06:00', { from: t + NOON / 2, to: t + 4 * DAY - 1 }),
  // Both ends inside days, the busy run of day 3 after the end.
  await timedStatistics('day 0 06:00-day 3 06:00', { from: t + NOON / 2, to: t + 3 * DAY + NOON / 2 }),
  // A window within one day: the busy run's six events per profile, per run instant.
  await timedStatistics('day 3, 06:00-18:00', { from: t + 3 * DAY + NOON / 2, to: t + 3 * DAY + (3 * NOON) / 2 }),
];
/** The first page of the Profiles list, and the page after it by its cursor, as the route reads them. */
async function timedPage(label: string, after?: string) {
  const t0 = performance.now();
  const q = { status: 'all' as const, page: 1, perPage: 50, ...(after === undefined ? {} : { after }) };
  const page = await listCustomers(db, accountId, journeyId, journey, [], q);
  const ms = Math.round(performance.now() - t0);
  process.stdout.write(`profiles, ${label.padEnd(24)} ${String(ms).padStart(5)} ms  ${page.data.length} rows\n`);
  return { label, ms, last: page.data[page.data.length - 1]?.profileKey };
}
const first = await timedPage('first page');
const pages = [first, await timedPage('next page (cursor)', first.last)];

/** MB on disk of the journey engine's tables with their indexes, and of its event log, after the runs. */
async function journeyTablesMb() {
  const sizes =
    benchBackend() === 'sqlite'
      ? await many<{ name: string; bytes: number }>(
          db,
          sql`SELECT m.tbl_name AS name, SUM(d.pgsize) AS bytes FROM dbstat d JOIN sqlite_master m ON m.name = d.name
              WHERE m.tbl_name LIKE 'journey%' GROUP BY m.tbl_name`,
        )
      : await many<{ name: string; bytes: string }>(
          db,
          sql`SELECT tablename AS name, pg_total_relation_size(quote_ident(tablename)) AS bytes FROM pg_tables
              WHERE schemaname = current_schema() AND tablename LIKE 'journey%'`,
        );
  const mb = (names: string[]) =>
    Math.round(sizes.filter((r) => names.includes(r.name)).reduce((n, r) => n + Number(r.bytes), 0) / 2 ** 20);
  const size = { journeyTablesMb: mb(sizes.map((r) => r.name)), eventLogMb: mb(['journey_run_events']) };
  process.stdout.write(
    `journey tables ${size.journeyTablesMb} MB on disk, of which the event log ${size.eventLogMb} MB\n`,
  );
  return size;
}
const size = await journeyTablesMb();
process.stdout.write(
  `BENCH_RESULT ${JSON.stringify({ backend: benchBackend(), profiles: N, runs: rows, statistics, pages, size })}\n`,
);
await storage.close();
rmSync(dir, { recursive: true, force: true });
