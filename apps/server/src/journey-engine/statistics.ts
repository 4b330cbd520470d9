import { journeyStatistics } from '@svc/journey-engine';
import { type JourneyRow, journeyOfRow } from '../journeys';
import type { AppDeps } from '../platform/context';
import { eventsBetween, lastRun, loadStates } from './store';
import { windowOf } from './window';

const iso = (ms: number) => new Date(ms).toISOString();

/** The statistics of a journey over a window (default: the past 30 days including today). */
export async function statisticsOf(deps: AppDeps, row: JourneyRow, from: string | undefined, to: string | undefined) {
  const window = windowOf(deps.clock.now().getTime(), from, to);
  const journey = journeyOfRow(row);
  const db = deps.storage.db;
  const events = await eventsBetween(db, row.account_id, row.id, window.from, window.to);
  const states = (await loadStates(db, row.account_id, row.id)).values();
  const stats = journeyStatistics(String(row.id), journey, events, states, window);
  const run = await lastRun(db, row.account_id, row.id);
  return {
    data: {
      journeyId: String(row.id),
      ...stats,
      window: { from: iso(window.from), to: iso(window.to) },
      lastRun: run
        ? {
            at: iso(run.at),
            status: run.status,
            skipped: run.skipped,
            profiles: run.profiles,
            changed: run.changed,
            events: run.events,
            durationMs: run.duration_ms,
            error: run.error,
          }
        : null,
    },
  };
}
