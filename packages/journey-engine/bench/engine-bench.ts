// Times engine runs over 100,000 profiles of the two-stage scenario journey (in memory, no storage):
// the run where everyone enters, a quiet run where everyone is waiting, and the run where the wait ends
// and everyone walks the decision point, the A/B test and the activation. Prints a table and a
// BENCH_RESULT line with the figures in JSON.
import { runJourney } from '../src/run';
import { SEG, scenarioJourney } from '../src/testing/scenario';
import { day } from '../src/testing/world';
import type { EngineProfile, ProfileState, RunResult } from '../src/types';

const N = Number(process.env.PROFILES ?? 100_000);
const journey = scenarioJourney({ split: [50, 50] });
const profiles: EngineProfile[] = Array.from({ length: N }, (_, i) => ({
  key: String(i),
  columns: { customer_id: `C${i}` },
}));
const segments = new Map<string, Set<string>>([
  [SEG.entry, new Set(profiles.map((p) => p.key))],
  [SEG.vip, new Set(profiles.filter((_, i) => i % 3 === 0).map((p) => p.key))],
]);
const isMember = (segmentId: string, key: string) => segments.get(segmentId)?.has(key) ?? false;
const states = new Map<string, ProfileState>();

function timed(label: string, at: number) {
  const started = performance.now();
  const result: RunResult = runJourney({ journeyId: 'bench', journey, at, pauses: [], profiles, states, isMember });
  const ms = performance.now() - started;
  for (const [key, state] of result.changed) states.set(key, state);
  return { label, ms, changed: result.changed.size, events: result.events.length, queued: result.queued.length };
}

// One warm-up on a small copy so the first timed run does not pay for compilation alone.
runJourney({
  journeyId: 'warm',
  journey,
  at: day(0),
  pauses: [],
  profiles: profiles.slice(0, 1000),
  states: new Map(),
  isMember,
});

const rows = [
  timed('everyone enters (day 0)', day(0)),
  timed('everyone waits (day 1)', day(1)),
  timed('wait ends: decision, A/B, activation (day 3)', day(3)),
];
for (const r of rows) {
  const perSecond = Math.round((N / r.ms) * 1000).toLocaleString('en-US');
  process.stdout.write(
    `${r.label.padEnd(48)} ${r.ms.toFixed(0).padStart(6)} ms  ${perSecond.padStart(10)} profiles/s  ${r.events} events, ${r.queued} queued\n`,
  );
}
process.stdout.write(`BENCH_RESULT ${JSON.stringify({ profiles: N, node: process.versions.node, runs: rows })}\n`);
