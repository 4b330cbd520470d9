import type { Journey } from '@svc/journey';
import { type PauseInterval, type RunResult, runJourney } from '@svc/journey-engine';
import { type Executor, refreshPlannerStatistics } from '../platform/storage';
import { type KeptRuns, planRun, type RunPopulation, rememberRun, statesToWrite } from './movers';
import { finishRun, insertRun, type RunRecord, saveRunInChunks } from './store';

const INTERRUPTED =
  'The server stopped while this run was being saved: the profiles saved so far moved on, the others move at the next run.';

export interface MoveInput {
  accountId: number;
  journeyId: number;
  journey: Journey;
  pauses: PauseInterval[];
  population: RunPopulation;
  /** The memberships this node keeps from each journey's last run (`deps.services`); none: nothing is kept. */
  kept?: KeptRuns;
  at: number;
  trigger: RunRecord['trigger'];
  /** Called between two parts of the save (see saveRunInChunks). */
  between?: (partMs: number) => Promise<void>;
  /** Profiles moved and saved at a time (RUN_BATCH unless a test says). */
  batch?: number;
}

/**
 * Profiles moved and saved at a time: a run holds one batch's events and changed states in memory, not those of
 * everyone who moves (6 events per profile on a busy day: 60 M events at 10 M profiles).
 */
const RUN_BATCH = 50_000;

/**
 * At most about this many batches a run: each asks the population for its profiles in the parent segment's order,
 * a pass over the parent segment, so batches grow past RUN_BATCH with the audience (500,000 at 10 M profiles).
 */
const MOST_BATCHES = 20;

/**
 * A run that changed at least this many states, and a tenth of the parent segment, has PostgreSQL's planner
 * statistics of the states and the log refreshed before it ends (the Profiles list right after a first run of a
 * million profiles was planned as if the table were empty).
 */
const ANALYZE_AFTER = 1_000;

/**
 * One run once its population is known: reads the profiles that may move (decision 0040), moves them, and
 * saves the outcome in parts under a run row that says "interrupted" until its last part commits. A crash
 * (kill -9) leaves each profile either wholly moved or untouched and the run row saying so; the next run,
 * which then reads everyone, moves the others, so nobody is moved, counted or queued twice.
 */
export async function moveAndSave(storage: { db: Executor }, m: MoveInput) {
  const { accountId, journeyId, journey, pauses, population, at } = m;
  const plan = await planRun(storage.db, m.kept, accountId, journeyId, journey, population, at);
  const counts = { profiles: population.size, changed: 0, events: 0, queued: 0 };
  const base = { accountId, journeyId, at, trigger: m.trigger };
  const runId = await insertRun(storage.db, {
    ...base,
    status: 'error',
    error: INTERRUPTED,
    profiles: counts.profiles,
  });
  const size = m.batch ?? Math.max(RUN_BATCH, Math.ceil(population.size / MOST_BATCHES));
  /** Profiles moved whose new wake time is still due at `at`: the walk of the wake index may meet them again. */
  const settled = new Set<string>();
  let skipped: RunResult['skipped'] = false;
  let looked = 0;
  // Profiles move independently of each other, so a batch at a time gives the run's outcome in parts.
  for await (const batch of plan.batches(size, settled)) {
    const { profiles, states } = batch;
    looked += profiles.length;
    const result = runJourney({
      journeyId: String(journeyId),
      journey,
      at,
      pauses,
      profiles,
      states,
      isMember: population.isMember,
    });
    skipped = result.skipped;
    const written = statesToWrite(batch, journey, journeyId, pauses, at, result);
    for (const [key, wake] of written.wakes) if (wake !== null && wake <= at) settled.add(key);
    counts.changed += result.changed.size;
    counts.events += result.events.length;
    counts.queued += result.queued.length;
    const last = batch.last || skipped !== false;
    const status = skipped ? 'skipped' : 'success';
    const finish = (tx: Executor) => finishRun(tx, accountId, runId, { status, skipped: skipped || null, ...counts });
    await saveRunInChunks(
      storage.db,
      accountId,
      journeyId,
      runId,
      { ...result, ...written, before: states },
      last ? finish : null,
      m.between,
    );
    if (last) break;
  }
  if (counts.changed >= Math.max(ANALYZE_AFTER, population.size / 10)) {
    await refreshPlannerStatistics(storage.db, ['journey_profile_states', 'journey_run_events']);
  }
  if (!skipped) rememberRun(m.kept, journeyId, runId, plan);
  return { runId, counts, looked, skipped, kept: population.kept };
}
