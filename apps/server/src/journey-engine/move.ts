import type { Journey } from '@svc/journey';
import { type PauseInterval, runJourney } from '@svc/journey-engine';
import type { Executor } from '../platform/storage';
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
}

/**
 * One run once its population is known: reads the profiles that may move (decision 0040), moves them, and
 * saves the outcome in parts under a run row that says "interrupted" until its last part commits. A crash
 * (kill -9) leaves each profile either wholly moved or untouched and the run row saying so; the next run,
 * which then reads everyone, moves the others, so nobody is moved, counted or queued twice.
 */
export async function moveAndSave(storage: { db: Executor }, m: MoveInput) {
  const { accountId, journeyId, journey, pauses, population, at } = m;
  const plan = await planRun(storage.db, m.kept, accountId, journeyId, journey, population, at);
  const result = runJourney({
    journeyId: String(journeyId),
    journey,
    at,
    pauses,
    profiles: plan.profiles,
    states: plan.states,
    isMember: population.isMember,
  });
  const written = statesToWrite(plan, journey, journeyId, pauses, at, result);
  const counts = {
    profiles: population.size,
    changed: result.changed.size,
    events: result.events.length,
    queued: result.queued.length,
  };
  const base = { accountId, journeyId, at, trigger: m.trigger };
  const runId = await insertRun(storage.db, { ...base, status: 'error', error: INTERRUPTED, ...counts });
  const status = result.skipped ? 'skipped' : 'success';
  await saveRunInChunks(
    storage.db,
    accountId,
    journeyId,
    runId,
    { ...result, ...written },
    (tx) => finishRun(tx, accountId, runId, { status, skipped: result.skipped || null }),
    m.between,
  );
  if (!result.skipped) rememberRun(m.kept, journeyId, runId, plan);
  return { runId, counts, looked: plan.profiles.length, skipped: result.skipped, kept: population.kept };
}
