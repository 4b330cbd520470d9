// The journey engine with its storage: 100,000 profiles, the engine's scenario journey, states and events
// loaded from and written to the real control database (WAL, synchronous NORMAL) in one transaction per
// run, as `runJourneyNow` does. Segment membership comes from in-memory sets, so segment evaluation (the
// audiences feature's SQL) is not part of the figure. Run: `npx tsx bench/journeyEngine.ts` in apps/server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runJourney } from '@svc/journey-engine';
import { SEG, scenarioJourney } from '../../../packages/journey-engine/src/testing/scenario';
import { loadStates, saveRun } from '../src/journey-engine/store';
import { insertJourneyRow } from '../src/journeys/store';
import { openControlDb } from '../src/platform/db';

const N = Number(process.env.PROFILES ?? 100_000);
const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-engine-'));
const db = openControlDb(join(dir, 'control.sqlite'));
const accountId = Number(
  db.prepare('INSERT INTO accounts (name, created_at) VALUES (?, ?)').run('bench', 0).lastInsertRowid,
);
const journey = scenarioJourney();
const journeyId = insertJourneyRow(db, {
  accountId,
  parentSegmentId: '1',
  folderId: '1',
  name: 'bench',
  state: 'launched',
  body: journey,
  userId: 0,
  now: 0,
});
const keys = Array.from({ length: N }, (_, i) => String(i));
const profiles = keys.map((key) => ({ key, columns: { customer_id: `C${key}` } }));
const segments = new Map<string, Set<string>>([
  [SEG.entry, new Set(keys)],
  [SEG.vip, new Set(keys.filter((_, i) => i % 3 === 0))],
]);
const isMember = (segmentId: string, key: string) => segments.get(segmentId)?.has(key) ?? false;

function timedRun(label: string, at: number) {
  const t0 = performance.now();
  const states = loadStates(db, accountId, journeyId);
  const t1 = performance.now();
  const result = runJourney({ journeyId: String(journeyId), journey, at, pauses: [], profiles, states, isMember });
  const t2 = performance.now();
  db.transaction(() => saveRun(db, accountId, journeyId, 1, result))();
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
  timedRun('everyone enters (day 0)', t),
  timedRun('everyone waits (day 1)', t + DAY),
  timedRun('wait ends (day 3)', t + 3 * DAY),
];
for (const r of rows) {
  process.stdout.write(
    `${r.label.padEnd(26)} load ${String(r.loadMs).padStart(5)} ms  engine ${String(r.engineMs).padStart(5)} ms  save ${String(r.saveMs).padStart(5)} ms  total ${String(r.totalMs).padStart(5)} ms  ${r.changed} states, ${r.events} events\n`,
  );
}
process.stdout.write(`BENCH_RESULT ${JSON.stringify({ profiles: N, runs: rows })}\n`);
db.close();
rmSync(dir, { recursive: true, force: true });
