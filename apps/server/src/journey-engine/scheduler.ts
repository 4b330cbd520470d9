import type { JourneyRow } from '../journeys/store';
import type { AppDeps } from '../platform/context';
import { deliverDue } from './deliveries';
import type { RunSummary } from './runner';
import { runJourneyInWorker } from './tasks';

export const DEFAULT_ENGINE_INTERVAL_MS = 60_000;

export interface JourneySchedulerOptions {
  /** How often every launched, running journey is run; default every minute. 0 turns the timer off. */
  intervalMs?: number;
}

export interface JourneyScheduler {
  /**
   * Runs every launched, unpaused journey of every account once, at the service clock's now, then sends
   * the activation deliveries that are due.
   */
  tick(): Promise<RunSummary[]>;
  start(): void;
  stop(): void;
}

/**
 * The engine's schedule. A timer calls `tick` every interval; the instants come from `deps.clock`, so
 * tests set the clock and call `tick` themselves. One journey failing (a segment deleted, profiles not
 * built) is logged and recorded as a failed run; the others still run.
 */
export function createJourneyScheduler(deps: AppDeps, options: JourneySchedulerOptions = {}): JourneyScheduler {
  const intervalMs = options.intervalMs ?? DEFAULT_ENGINE_INTERVAL_MS;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running = false;

  const tick = async (): Promise<RunSummary[]> => {
    if (running) return [];
    running = true;
    try {
      // The schedule is the one place that looks across accounts; each run is scoped by its journey's account.
      const rows = deps.db
        .prepare("SELECT * FROM journeys WHERE state = 'launched' AND paused = 0 ORDER BY account_id, id")
        .all() as JourneyRow[];
      const done: RunSummary[] = [];
      const attempt = async (row: JourneyRow, what: string, work: () => unknown) => {
        try {
          await work();
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          deps.logger.warn(`journey ${what} failed`, { journeyId: row.id, accountId: row.account_id, error: message });
        }
      };
      for (const row of rows) {
        await attempt(row, 'run', async () => done.push(await runJourneyInWorker(deps, row, 'schedule')));
        await attempt(row, 'delivery', () => deliverDue(deps, row, deps.clock.now().getTime()));
      }
      return done;
    } finally {
      running = false;
    }
  };

  return {
    tick,
    start() {
      if (timer || intervalMs <= 0) return;
      timer = setInterval(() => void tick(), intervalMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
