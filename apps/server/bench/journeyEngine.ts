// The journey engine with its storage: 100,000 profiles, the engine's scenario journey, states and events
// loaded from and written to the real control database (SQLite by default, PostgreSQL with
// SVC_BENCH_BACKEND=postgres and SVC_TEST_PG_URL) in parts of 1,000 profiles, as `runJourneyNow` saves a run
// (without the pauses it leaves between parts on SQLite). Segment membership comes from in-memory sets, so
// segment evaluation (the audiences feature's SQL) is not part of the figure.
// Then the statistics of two windows, counted as the statistics route counts them.
// Run: `npx tsx bench/journeyEngine.ts` in apps/server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runJourney, shapeStatistics } from '@svc/journey-engine';
import { SEG, scenarioJourney } from '../../../packages/journey-engine/src/testing/scenario';
import { statisticsTally } from '../src/journey-engine/figures';
import { finishRun, insertRun, loadStates, saveRunInChunks } from '../src/journey-engine/store';
import { insertId, sql } from '../src/platform/storage';
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
const profiles = keys.map((key) => ({ key, columns: { customer_id: `C${key}` } }));
const segments = new Map<string, Set<string>>([
  [SEG.entry, new Set(keys)],
  [SEG.vip, new Set(keys.filter((_, i) => i % 3 === 0))],
]);
const isMember = (segmentId: string, key: string) => segments.get(segmentId)?.has(key) ?? false;

async function timedRun(label: string, at: number) {
  const t0 = performance.now();
  const states = await loadStates(db, accountId, journeyId);
  const t1 = performance.now();
  const result = runJourney({ journeyId: String(journeyId), journey, at, pauses: [], profiles, states, isMember });
  const t2 = performance.now();
  const runId = await insertRun(db, { accountId, journeyId, at, trigger: 'schedule', status: 'error' });
  await saveRunInChunks(db, accountId, journeyId, runId, result, (tx) =>
    finishRun(tx, accountId, runId, { status: 'success' }),
  );
  const t3 = performance.now();
  return {
    label,
    loadMs: Math.round(t1 - t0),
    engineMs: Math.round(t2 - t1),
    saveMs: Math.round(t3 - t2),
    totalMs: Math.round(t3 - t0),
    changed: result.changed.size,
    events: result.events.length,
  };
}

const t = Date.UTC(2026, 0, 1);
const rows = [
  await timedRun('everyone enters (day 0)', t),
  await timedRun('everyone waits (day 1)', t + DAY),
  await timedRun('wait ends (day 3)', t + 3 * DAY),
];
for (const r of rows) {
  process.stdout.write(
    `${r.label.padEnd(26)} load ${String(r.loadMs).padStart(5)} ms  engine ${String(r.engineMs).padStart(5)} ms  save ${String(r.saveMs).padStart(5)} ms  total ${String(r.totalMs).padStart(5)} ms  ${r.changed} states, ${r.events} events\n`,
  );
}

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
  process.stdout.write(`statistics, ${label.padEnd(18)} ${String(ms).padStart(5)} ms  entered ${stats.entered}\n`);
  return { label, ms, entered: stats.entered };
}
const statistics = [
  await timedStatistics('the whole journey', { from: t, to: t + 4 * DAY }),
  await timedStatistics('day 3 only', { from: t + 3 * DAY, to: t + 4 * DAY - 1 }),
];
process.stdout.write(
  `BENCH_RESULT ${JSON.stringify({ backend: benchBackend(), profiles: N, runs: rows, statistics })}\n`,
);
await storage.close();
rmSync(dir, { recursive: true, force: true });
