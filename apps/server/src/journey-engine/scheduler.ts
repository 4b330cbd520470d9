import { type JourneyRow, runningJourneyRows } from '../journeys';
import type { AppDeps } from '../platform/context';
import { claimSlot, pruneSlots } from '../platform/storage';
import { deliverDue } from './deliveries';
import type { RunSummary } from './runner';
import { runJourneyUnlessRunning } from './tasks';

export const DEFAULT_ENGINE_INTERVAL_MS = 60_000;

/** Each journey's firings are claimed as schedule slots (platform/storage/slots.ts) under this prefix. */
const SLOT_PREFIX = 'journey_engine:';
/** A firing's slot is kept a day: long past the minute in which another node could still claim it. */
const SLOT_KEEP_MS = 86_400_000;

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
 *
 * Several nodes on one database fire each journey once per interval: every node's tick claims the
 * journey's slot (the interval its now falls in, the same on every node), and only the node that claims it
 * runs the journey and sends its deliveries. A run already under way (a "Run now" on another node) takes
 * the firing's place.
 */
export function createJourneyScheduler(deps: AppDeps, options: JourneySchedulerOptions = {}): JourneyScheduler {
  const intervalMs = options.intervalMs ?? DEFAULT_ENGINE_INTERVAL_MS;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running = false;

  const slotOf = (now: number) => (intervalMs > 0 ? now - (now % intervalMs) : now);

  const tick = async (): Promise<RunSummary[]> => {
    if (running) return [];
    running = true;
    try {
      const db = deps.storage.db;
      const now = deps.clock.now().getTime();
      const done: RunSummary[] = [];
      const attempt = async (row: JourneyRow, what: string, work: () => Promise<unknown>) => {
        try {
          await work();
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          deps.logger.warn(`journey ${what} failed`, { journeyId: row.id, accountId: row.account_id, error: message });
        }
      };
      for (const row of await runningJourneyRows(db)) {
        const slot = `${SLOT_PREFIX}${row.account_id}:${row.id}`;
        if (!(await claimSlot(db, slot, slotOf(now), now))) continue;
        await attempt(row, 'run', async () => {
          const summary = await runJourneyUnlessRunning(deps, row, 'schedule');
          if (summary) done.push(summary);
        });
        await attempt(row, 'delivery', () => deliverDue(deps, row, deps.clock.now().getTime()));
      }
      await pruneSlots(db, now - SLOT_KEEP_MS, SLOT_PREFIX);
      return done;
    } finally {
      running = false;
    }
  };

  return {
    tick,
    start() {
      if (timer || intervalMs <= 0) return;
      timer = setInterval(() => {
        tick().catch((err) => {
          deps.logger.warn('journey engine tick failed', { error: err instanceof Error ? err.message : String(err) });
        });
      }, intervalMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
