import type { JobRow } from '../jobs/jobStore';
import type { JobRunner } from '../jobs/runner';
import type { AppDeps } from '../platform/context';
import { nextFire } from '../platform/cron';
import { conflict } from '../platform/errors';
import { claimSlot, type Executor, pruneSlots, transaction } from '../platform/storage';
import { issueOneOff } from './adhoc';
import { bulkLoadJobKind } from './run';
import type { BulkLoadSource } from './source';
import { type BulkLoadRow, inFlightJob, lockBulkLoad, markFired, queuedJobParams, scheduledBulkLoads } from './store';

/**
 * Running bulk loads: the `bulkload` job kind on the app's job runner, on-demand runs, and the cron
 * schedules (each session's `cron` in its `timezone`; other features add their own schedules with
 * `onTick`). The clock is the app's, so tests advance time and call `tick()`.
 */
export interface BulkLoadService {
  /**
   * Queues a run of the session as `userId` (the session's creator when a schedule fires). A session runs
   * one job at a time: while one is queued or running this throws 409 naming it. `ex`: the caller's open
   * transaction, when it queues runs of several sessions in one.
   */
  enqueue(row: BulkLoadRow, userId: number, priority?: number, ex?: Executor): Promise<JobRow>;
  /** Queues the runs whose schedule came due since the last tick; returns how many. */
  tick(): Promise<number>;
  onTick(fn: (now: number) => number | Promise<number>): void;
  /** The source kinds runs read, by `config.in.type`. */
  readonly sources: ReadonlyMap<string, BulkLoadSource>;
}

export { nextFire } from '../platform/cron';

/** How often the schedules are checked by default (`SVC_SCHEDULE_INTERVAL_SECONDS`). */
export const TICK_MS = 30_000;

/** The key of a session's schedule slots (ids can be reused after a delete: the creation time tells them apart). */
const slotKey = (row: BulkLoadRow) => `bulk_load:${row.id}:${row.created_at}`;

/** Slots older than this are forgotten: their schedules moved on long ago. */
const SLOT_KEEP_MS = 7 * 24 * 3600 * 1000;

export interface BulkLoadServiceOptions {
  /** How often this node checks the schedules (default TICK_MS). */
  tickMs?: number;
}

export function createBulkLoadService(
  deps: AppDeps,
  jobs: JobRunner,
  sources: readonly BulkLoadSource[],
  options: BulkLoadServiceOptions = {},
): BulkLoadService {
  const hooks: ((now: number) => number | Promise<number>)[] = [];
  let timer: NodeJS.Timeout | null = null;
  const byType = new Map(sources.map((s) => [s.type, s]));
  const kind = bulkLoadJobKind(deps, { sources: byType });
  // `td connector:issue`: a one-off run without a session (adhoc.ts).
  jobs.registerIssuer('bulkload', (request) => issueOneOff(deps, jobs, byType, request));
  jobs.register({
    ...kind,
    close() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  });
  const db = deps.storage.db;

  const service: BulkLoadService = {
    sources: byType,
    async enqueue(row, userId, priority = 0, ex = db) {
      // Read with the caller's executor: inside its transaction, another statement would wait for it.
      const params = await queuedJobParams(deps, row, ex);
      // The check and the insert run in one transaction with the session's row locked, so no other request
      // (or node) slips a second run in between.
      return transaction(ex, async (tx) => {
        await lockBulkLoad(tx, row);
        const busy = await inFlightJob(tx, row);
        if (busy) {
          throw conflict(
            `The bulk load session "${row.name}" already has job ${busy.id} ${busy.status}; a session runs one job at a time. Wait for it to end (GET /v3/bulk_loads/${row.name}/jobs) or kill it, then run again.`,
          );
        }
        return jobs.enqueue(
          {
            accountId: row.account_id,
            userId,
            type: 'bulkload',
            database: row.database_name,
            query: null,
            priority,
            params: { ...params },
          },
          tx,
        );
      });
    },
    async tick() {
      const now = deps.clock.now().getTime();
      let queued = 0;
      for (const row of await scheduledBulkLoads(db)) {
        const since = Math.max(row.last_fired_at ?? row.created_at, row.start_at ?? 0);
        const next = nextFire(row.cron as string, row.timezone, since);
        if (next === null || next + row.delay * 1000 > now) continue;
        // Every node sees the firing come due; the one that claims its slot queues it.
        if (!(await claimSlot(db, slotKey(row), next, now))) {
          deps.logger.info('bulk load schedule fired on another node', { session: row.name, due: next });
          continue;
        }
        await markFired(db, row, now);
        // A run still in flight takes this firing's place: the next run continues from where it ends.
        const busy = await inFlightJob(db, row);
        if (busy) {
          deps.logger.info('bulk load schedule skipped: a run is in flight', { session: row.name, job_id: busy.id });
          continue;
        }
        try {
          await service.enqueue(row, row.user_id as number);
          queued++;
        } catch (err) {
          deps.logger.warn('bulk load schedule could not queue a run', {
            session: row.name,
            error: err instanceof Error ? err.message : String(err),
          });
        }
      }
      // Each feature's schedule runs on its own: one that fails is logged and never holds up the others.
      for (const hook of hooks) {
        try {
          queued += await hook(now);
        } catch (err) {
          deps.logger.warn('a schedule of the tick failed', {
            error: err instanceof Error ? err.message : String(err),
          });
        }
      }
      await pruneSlots(db, now - SLOT_KEEP_MS);
      return queued;
    },
    onTick(fn) {
      hooks.push(fn);
    },
  };
  timer = setInterval(() => {
    service.tick().catch((err) => {
      deps.logger.warn('bulk load schedule tick failed', { error: err instanceof Error ? err.message : String(err) });
    });
  }, options.tickMs ?? TICK_MS);
  timer.unref();
  return service;
}
