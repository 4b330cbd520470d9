import { type StatisticsWindow, shapeStatistics } from '@svc/journey-engine';
import { type JourneyRow, journeyOfRow } from '../journeys';
import type { AppDeps } from '../platform/context';
import { statisticsTally } from './figures';
import { lastRun } from './store';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The statistics of a journey over a window (default: the past 30 days including today), counted by the
 * database (figures.ts). Runs in a worker thread (statisticsInWorker): at millions of profiles the counting
 * takes its time, and the request loop must stay free meanwhile.
 */
export async function statisticsOf(deps: AppDeps, row: JourneyRow, window: StatisticsWindow) {
  const journey = journeyOfRow(row);
  const db = deps.storage.db;
  const tally = await statisticsTally(db, row.account_id, row.id, window);
  const stats = shapeStatistics(String(row.id), journey, tally, window);
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
