import { setTimeout as sleep } from 'node:timers/promises';
import type { PauseInterval } from '@svc/journey-engine';
import { eventsOf, type JourneyRow, journeyOfRow, PAUSE_PERIOD } from '../journeys';
import type { AppDeps } from '../platform/context';
import type { Executor } from '../platform/storage';
import { moveAndSave } from './move';
import { runPopulationFor } from './population';
import { insertRun, setRunDuration } from './store';

/**
 * Between two parts of a save on SQLite, the lock of the control database is left free for as long as the
 * part held it (up to 50 ms): SQLite's waiting writers poll, and a run that took the lock back at once would
 * keep a postback's catalog update or a job's progress waiting until the whole run is saved. The run's worker
 * waits; the request loop is not involved. PostgreSQL locks rows, not the database, so nothing waits there.
 */
function pauseBetweenParts(deps: AppDeps) {
  if (deps.storage.backend !== 'sqlite') return undefined;
  return (partMs: number) => sleep(Math.min(50, Math.max(1, partMs)));
}

/** The journey's pause intervals: recorded pause periods, and the pause still going on if it is paused. */
export async function pausesOf(ex: Executor, row: JourneyRow): Promise<PauseInterval[]> {
  const closed: PauseInterval[] = (await eventsOf(ex, row.account_id, row.id, PAUSE_PERIOD))
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
  /** Profiles read and moved (decision 0040). */
  looked: number;
  /**
   * Whether the segment memberships were evaluated for this run (false: kept from the last run, as nothing
   * they are evaluated from changed; decision 0046).
   */
  evaluated: boolean;
  /**
   * Sets (the parent segment's counted) whose keys were read for this run: those whose fingerprint changed
   * since the journey's last run on this node (decision 0058); the others were reused.
   */
  membersRead: number;
  changed: number;
  events: number;
  queued: number;
  durationMs: number;
}

/**
 * Runs one journey at the service clock's now and stores the outcome: changed profile states, events,
 * queued activations, A/B assignments and a run row, profile by profile in short transactions
 * (saveRunInChunks). Runs as a background task in the journey's own lane, under the journey's lock
 * (tasks.ts), so two runs of the same journey never interleave, on one node or several. Errors (a segment
 * gone, profiles not built) are recorded as a failed run and thrown.
 */
export async function runJourneyNow(
  deps: AppDeps,
  row: JourneyRow,
  trigger: 'schedule' | 'request',
): Promise<RunSummary> {
  const db = deps.storage.db;
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
    looked: 0,
    evaluated: false,
    membersRead: 0,
    changed: 0,
    events: 0,
    queued: 0,
    durationMs: Math.round(performance.now() - started),
    ...s,
  });
  const journey = journeyOfRow(row);
  if (row.state !== 'launched' || row.paused === 1) {
    const skipped = row.state !== 'launched' ? 'draft' : 'paused';
    const runId = await insertRun(db, { ...base, status: 'skipped', skipped });
    return summary(runId, { status: 'skipped', skipped });
  }
  try {
    const pauses = await pausesOf(db, row);
    const population = await runPopulationFor(deps, row.account_id, row.id, journey, now);
    const moved = await moveAndSave(deps.storage, {
      accountId: row.account_id,
      journeyId: row.id,
      journey,
      pauses,
      population,
      kept: deps.services?.keptRuns,
      at,
      trigger,
      between: pauseBetweenParts(deps),
    });
    const { runId, counts, skipped } = moved;
    const durationMs = performance.now() - started;
    await setRunDuration(db, row.account_id, runId, durationMs);
    return summary(runId, {
      ...counts,
      looked: moved.looked,
      evaluated: !moved.kept,
      membersRead: population.membersRead,
      status: skipped ? 'skipped' : 'success',
      skipped: skipped || null,
      durationMs: Math.round(durationMs),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // The run's own error is what the caller needs; a failure to record it (storage gone) must not replace it.
    await insertRun(db, { ...base, status: 'error', error: message, durationMs: performance.now() - started }).catch(
      () => undefined,
    );
    throw err;
  }
}
