import { type JobRow, retriableScheduledJobs } from '../jobs/jobStore';
import type { JobRunner } from '../jobs/runner';
import type { AppDeps } from '../platform/context';
import { claimSlot, transaction } from '../platform/storage';
import { enqueueRun } from './service';
import { dueSlot } from './slots';
import { cronSchedules, markFired, type ScheduleRow, scheduleById } from './store';

/**
 * The scheduler of scheduled queries. Each tick looks at every account's schedules with a cron (the
 * clock is the app's, so tests set the time and call `tick()`): a due slot is claimed, marked fired and
 * its job queued in ONE transaction, so exactly one node queues it, even with two nodes on one PostgreSQL
 * database (`platform/storage/slots.ts`), and a crash in between leaves the slot to fire again. A failed
 * run with retries left (its `retry_limit`) is queued again for the same slot the same way.
 */

export interface SchedulerOptions {
  /** How often the scheduler looks (ms, default 15 000); 0 leaves only `tick()`, which tests call. */
  intervalMs?: number;
}

export interface Scheduler {
  /** Queues the runs that came due and the retries that are owed; resolves with how many. */
  tick(): Promise<number>;
  start(): void;
  stop(): void;
}

/** Failed runs are retried only this long after they ended (a restart after days does not revive them). */
const RETRY_WINDOW_MS = 24 * 3600 * 1000;

/** A schedule's slot key: the creation time tells apart ids a database could hand out again. */
const slotKey = (row: ScheduleRow) => `schedule:${row.id}:${row.created_at}`;

export function createScheduler(deps: AppDeps, jobs: JobRunner, options: SchedulerOptions = {}): Scheduler {
  const db = deps.storage.db;
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<number> | null = null;

  const fire = (row: ScheduleRow, slot: number, now: number) =>
    transaction(db, async (tx) => {
      if (!(await claimSlot(tx, slotKey(row), slot, now))) return false;
      if (!(await markFired(tx, row, slot))) return false;
      await enqueueRun(jobs, row, slot, row.user_id, tx);
      return true;
    });

  const retry = (job: JobRow, now: number) =>
    transaction(db, async (tx) => {
      const row = await scheduleById(tx, job.account_id, job.schedule_id as number);
      // A deleted schedule runs no more, retries included.
      if (!row) return false;
      if (!(await claimSlot(tx, `schedule_retry:${job.id}`, job.scheduled_at as number, now))) return false;
      await jobs.enqueue(
        {
          accountId: job.account_id,
          userId: job.user_id,
          type: job.type,
          database: job.database_name,
          query: job.query,
          priority: job.priority,
          retryLimit: job.retry_limit,
          schedule: { id: row.id, name: row.name, scheduledAt: job.scheduled_at as number },
          resultUrl: job.result_url,
        },
        tx,
      );
      return true;
    });

  async function once(): Promise<number> {
    const now = deps.clock.now().getTime();
    let queued = 0;
    for (const row of await cronSchedules(db)) {
      const slot = dueSlot(row, now);
      if (slot === null) continue;
      try {
        if (await fire(row, slot, now)) queued++;
      } catch (err) {
        deps.logger.warn('schedule could not queue a run', {
          schedule: row.id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
    for (const job of await retriableScheduledJobs(db, now - RETRY_WINDOW_MS)) {
      if (await retry(job, now)) queued++;
    }
    if (queued > 0) jobs.wake();
    return queued;
  }

  const scheduler: Scheduler = {
    tick() {
      // One tick at a time: a slow tick is joined, never overlapped.
      ticking ??= once().finally(() => {
        ticking = null;
      });
      return ticking;
    },
    start() {
      const every = options.intervalMs ?? 15_000;
      if (every <= 0 || timer) return;
      timer = setInterval(() => {
        scheduler.tick().catch((err) => {
          deps.logger.warn('schedule tick failed', { error: err instanceof Error ? err.message : String(err) });
        });
      }, every);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
  return scheduler;
}
