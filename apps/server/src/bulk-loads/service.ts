import { Cron } from 'croner';
import type { JobRow } from '../jobs/jobStore';
import type { JobRunner } from '../jobs/runner';
import type { AppDeps } from '../platform/context';
import { conflict } from '../platform/errors';
import { bulkLoadJobKind } from './run';
import type { BulkLoadSource } from './source';
import { type BulkLoadRow, inFlightJob, queuedJobParams } from './store';

/**
 * Running bulk loads: the `bulkload` job kind on the app's job runner, on-demand runs, and the cron
 * schedules (each session's `cron` in its `timezone`; other features add their own schedules with
 * `onTick`). The clock is the app's, so tests advance time and call `tick()`.
 */
export interface BulkLoadService {
  /**
   * Queues a run of the session as `userId` (the session's creator when a schedule fires). A session runs
   * one job at a time: while one is queued or running this throws 409 naming it.
   */
  enqueue(row: BulkLoadRow, userId: number, priority?: number): JobRow;
  /** Queues the runs whose schedule came due since the last tick; returns how many. */
  tick(): number;
  onTick(fn: (now: number) => number): void;
}

/** The next time a cron fires strictly after `after` (ms), in its time zone; null when it never does. */
export function nextFire(cron: string, timezone: string, after: number): number | null {
  const job = new Cron(cron, { paused: true, timezone });
  const next = job.nextRun(new Date(after));
  job.stop();
  return next ? next.getTime() : null;
}

const TICK_MS = 30_000;

export function createBulkLoadService(
  deps: AppDeps,
  jobs: JobRunner,
  sources: readonly BulkLoadSource[],
): BulkLoadService {
  const hooks: ((now: number) => number)[] = [];
  let timer: NodeJS.Timeout | null = null;
  const kind = bulkLoadJobKind(deps, { sources: new Map(sources.map((s) => [s.type, s])) });
  jobs.register({
    ...kind,
    close() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  });

  const service: BulkLoadService = {
    enqueue(row, userId, priority = 0) {
      // The check and the insert run in one synchronous stretch, so no other request slips in between.
      const busy = inFlightJob(deps.db, row);
      if (busy) {
        throw conflict(
          `The bulk load session "${row.name}" already has job ${busy.id} ${busy.status}; a session runs one job at a time. Wait for it to end (GET /v3/bulk_loads/${row.name}/jobs) or kill it, then run again.`,
        );
      }
      return jobs.enqueue({
        accountId: row.account_id,
        userId,
        type: 'bulkload',
        database: row.database_name,
        query: null,
        priority,
        params: { ...queuedJobParams(deps.db, row) },
      });
    },
    tick() {
      const now = deps.clock.now().getTime();
      let queued = 0;
      const due = deps.db
        .prepare('SELECT * FROM bulk_loads WHERE cron IS NOT NULL AND integration_id IS NULL AND user_id IS NOT NULL')
        .all() as BulkLoadRow[];
      for (const row of due) {
        const since = Math.max(row.last_fired_at ?? row.created_at, row.start_at ?? 0);
        const next = nextFire(row.cron as string, row.timezone, since);
        if (next === null || next + row.delay * 1000 > now) continue;
        deps.db.prepare('UPDATE bulk_loads SET last_fired_at = ? WHERE id = ?').run(now, row.id);
        // A run still in flight takes this firing's place: the next run continues from where it ends.
        const busy = inFlightJob(deps.db, row);
        if (busy) {
          deps.logger.info('bulk load schedule skipped: a run is in flight', { session: row.name, job_id: busy.id });
          continue;
        }
        service.enqueue(row, row.user_id as number);
        queued++;
      }
      for (const hook of hooks) queued += hook(now);
      return queued;
    },
    onTick(fn) {
      hooks.push(fn);
    },
  };
  timer = setInterval(() => {
    try {
      service.tick();
    } catch (err) {
      deps.logger.warn('bulk load schedule tick failed', { error: err instanceof Error ? err.message : String(err) });
    }
  }, TICK_MS);
  timer.unref();
  return service;
}
