import type { PauseInterval } from '@svc/journey-engine';
import { runJourney } from '@svc/journey-engine';
import { PAUSE_PERIOD } from '../journeys/lifecycle';
import { eventsOf, type JourneyRow } from '../journeys/store';
import { journeyOfRow } from '../journeys/wire';
import type { AppDeps } from '../platform/context';
import type { Db } from '../platform/db';
import { populationFor } from './population';
import { insertRun, loadStates, saveRun, setRunDuration } from './store';

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
 * queued activations, A/B assignments and a run row, in one transaction. Synchronous from start to end,
 * so two runs of the same journey in this process never interleave. Errors (a segment gone, profiles
 * not built) are recorded as a failed run and thrown.
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
    const runId = deps.db.transaction(() => {
      const id = insertRun(deps.db, {
        ...base,
        status: result.skipped ? 'skipped' : 'success',
        skipped: result.skipped || null,
        ...counts,
      });
      saveRun(deps.db, row.account_id, row.id, id, result);
      return id;
    })();
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
