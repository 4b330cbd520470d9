import type { PauseInterval } from '@svc/journey-engine';
import { runJourney } from '@svc/journey-engine';
import { PAUSE_PERIOD } from '../journeys/lifecycle';
import { eventsOf, type JourneyRow } from '../journeys/store';
import { journeyOfRow } from '../journeys/wire';
import type { AppDeps } from '../platform/context';
import type { Db } from '../platform/db';
import { populationFor } from './population';
import { finishRun, insertRun, loadStates, saveRunInChunks, setRunDuration } from './store';

/**
 * Between two parts of a save, the lock of the control database is left free for as long as the part held
 * it (up to 50 ms): SQLite's waiting writers poll, and a run that took the lock back at once would keep a
 * postback's catalog update or a job's progress waiting until the whole run is saved. The run's worker
 * sleeps; the request loop is not involved.
 */
const pause = new Int32Array(new SharedArrayBuffer(4));
const leaveRoom = (partMs: number) => {
  Atomics.wait(pause, 0, 0, Math.min(50, Math.max(1, partMs)));
};

const INTERRUPTED =
  'The server stopped while this run was being saved: the profiles saved so far moved on, the others move at the next run.';

/** The journey's pause intervals: recorded pause periods, and the pause still going on if it is paused. */
export function pausesOf(db: Db, row: JourneyRow): PauseInterval[] {
  const closed: PauseInterval[] = eventsOf(db, row.account_id, row.id, PAUSE_PERIOD)
    .filter((e) => e.started_at !== null && e.ended_at !== null)
    .map((e) => ({ from: e.started_at as number, to: e.ended_at as number }));
  if (row.paused === 1 && row.paused_at !== null) closed.push({ from: row.paused_at, to: null });
  return closed;
}

export interface RunSummary {
  runId: number;
  journeyId: string;
  /** The run instant (the service clock), ISO 8601. */
  at: string;
  status: 'success' | 'skipped';
  /** Why nothing ran: the journey is a draft, or paused. */
  skipped: 'draft' | 'paused' | null;
  profiles: number;
  changed: number;
  events: number;
  queued: number;
  durationMs: number;
}

/**
 * Runs one journey at the service clock's now and stores the outcome: changed profile states, events,
 * queued activations, A/B assignments and a run row, profile by profile in short transactions
 * (saveRunInChunks). Runs in a background worker, in the journey's own lane, so two runs of the same
 * journey never interleave. Errors (a segment gone, profiles not built) are recorded as a failed run and
 * thrown.
 */
export function runJourneyNow(deps: AppDeps, row: JourneyRow, trigger: 'schedule' | 'request'): RunSummary {
  const started = performance.now();
  const now = deps.clock.now();
  const at = now.getTime();
  const base = { accountId: row.account_id, journeyId: row.id, at, trigger };
  const summary = (runId: number, s: Partial<RunSummary>): RunSummary => ({
    runId,
    journeyId: String(row.id),
    at: now.toISOString(),
    status: 'success',
    skipped: null,
    profiles: 0,
    changed: 0,
    events: 0,
    queued: 0,
    durationMs: Math.round(performance.now() - started),
    ...s,
  });
  const journey = journeyOfRow(row);
  const pauses = pausesOf(deps.db, row);
  if (row.state !== 'launched' || row.paused === 1) {
    const skipped = row.state !== 'launched' ? 'draft' : 'paused';
    const runId = insertRun(deps.db, { ...base, status: 'skipped', skipped });
    return summary(runId, { status: 'skipped', skipped });
  }
  try {
    const population = populationFor(deps, row.account_id, journey, now);
    const states = loadStates(deps.db, row.account_id, row.id);
    const result = runJourney({
      journeyId: String(row.id),
      journey,
      at,
      pauses,
      profiles: population.profiles,
      states,
      isMember: population.isMember,
    });
    const counts = {
      profiles: population.profiles.length,
      changed: result.changed.size,
      events: result.events.length,
      queued: result.queued.length,
    };
    // The run row says "interrupted" until its last chunk commits; a crash leaves it saying so.
    const runId = insertRun(deps.db, { ...base, status: 'error', error: INTERRUPTED, ...counts });
    const status = result.skipped ? 'skipped' : 'success';
    saveRunInChunks(
      deps.db,
      row.account_id,
      row.id,
      runId,
      result,
      () => finishRun(deps.db, runId, { status, skipped: result.skipped || null }),
      leaveRoom,
    );
    const durationMs = performance.now() - started;
    setRunDuration(deps.db, runId, durationMs);
    return summary(runId, {
      ...counts,
      status: result.skipped ? 'skipped' : 'success',
      skipped: result.skipped || null,
      durationMs: Math.round(durationMs),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    insertRun(deps.db, { ...base, status: 'error', error: message, durationMs: performance.now() - started });
    throw err;
  }
}
