import { type DatabaseRow, requireDatabase } from '../data';
import type { JobRow, JobRunner } from '../jobs';
import { checkResultTarget, inspectQuery, QueryRefused } from '../jobs';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, unprocessable } from '../platform/errors';
import { type Executor, transaction } from '../platform/storage';
import { checkScheduleName, pausedParam, scheduleSettings } from './settings';
import { runSlots } from './slots';
import {
  countSchedules,
  deleteSchedule,
  insertSchedule,
  requireSchedule,
  type ScheduleRow,
  type ScheduleSettings,
  type ScheduleView,
  saveSchedule,
} from './store';

/** What the schedule routes do: create, change, delete and run schedules now. */

const now = (deps: AppDeps) => deps.clock.now().getTime();

/** The checks that need the account: the database exists, the query can run there, the result target is valid. */
async function checkInAccount(deps: AppDeps, accountId: number, s: ScheduleSettings): Promise<DatabaseRow> {
  const database = await requireDatabase(deps.storage.db, accountId, s.database_name);
  try {
    await inspectQuery(deps, database, s.type, s.query);
  } catch (err) {
    if (err instanceof QueryRefused) throw badRequest(`"query": ${err.message}`);
    throw err;
  }
  if (s.result !== '') await checkResultTarget(deps, accountId, s.result);
  return database;
}

/** Schedules one account may have: the scheduler looks at every one of them at each tick. */
export const MAX_SCHEDULES = 1000;

export async function createSchedule(
  deps: AppDeps,
  p: Principal,
  name: string,
  raw: Record<string, unknown>,
): Promise<ScheduleView> {
  const settings = scheduleSettings(checkScheduleName(name), raw, null);
  await checkInAccount(deps, p.accountId, settings);
  if ((await countSchedules(deps.storage.db, p.accountId)) >= MAX_SCHEDULES) {
    throw unprocessable(`An account can have at most ${MAX_SCHEDULES} schedules: delete ones no longer used.`);
  }
  await insertSchedule(deps.storage.db, p.accountId, p.userId, settings, now(deps));
  return requireSchedule(deps.storage.db, p.accountId, settings.name);
}

export async function updateSchedule(
  deps: AppDeps,
  p: Principal,
  name: string,
  raw: Record<string, unknown>,
): Promise<ScheduleView> {
  const before = await requireSchedule(deps.storage.db, p.accountId, name);
  const settings = scheduleSettings(before.name, raw, before);
  const paused = pausedParam(raw);
  await checkInAccount(deps, p.accountId, settings);
  const at = now(deps);
  const pausedAt = paused === undefined ? before.paused_at : paused ? (before.paused_at ?? at) : null;
  // A new cron or time zone, or a resume, takes effect now: no slot before it fires.
  const retimed =
    settings.cron !== before.cron ||
    settings.timezone !== before.timezone ||
    (before.paused_at !== null && pausedAt === null);
  await saveSchedule(
    deps.storage.db,
    before,
    settings,
    { firedThrough: retimed ? Math.max(before.fired_through, at) : before.fired_through, pausedAt },
    at,
  );
  return requireSchedule(deps.storage.db, p.accountId, settings.name);
}

/** Deletes a schedule; its past runs stay as jobs. Answers what it was. */
export async function removeSchedule(deps: AppDeps, p: Principal, name: string): Promise<ScheduleView> {
  const row = await requireSchedule(deps.storage.db, p.accountId, name);
  await deleteSchedule(deps.storage.db, row);
  return row;
}

/** Queues one run of the schedule for `slot` (ms) as `userId`, in the caller's transaction `ex`. */
export function enqueueRun(
  jobs: JobRunner,
  row: ScheduleRow,
  slot: number,
  userId: number | null,
  ex: Executor,
): Promise<JobRow> {
  return jobs.enqueue(
    {
      accountId: row.account_id,
      userId,
      type: row.type,
      database: row.database_name,
      query: row.query,
      priority: row.priority,
      retryLimit: row.retry_limit,
      schedule: { id: row.id, name: row.name, scheduledAt: slot },
      resultUrl: row.result || null,
    },
    ex,
  );
}

/** `time` of `/v3/schedule/run`: Unix seconds (what the clients send) or a date and time. */
export function runTime(raw: string): number {
  const ms = /^\d{1,12}$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
  if (!Number.isFinite(ms) || ms < 0 || ms > Date.UTC(9999, 11, 31)) {
    throw badRequest('"time" must be Unix seconds (e.g. 1767225600) or an ISO 8601 time such as 2026-01-01T00:00:00Z.');
  }
  return ms;
}

/** Runs the schedule now for `count` slots from `first`: it, then the cron's next ones. All queue or none. */
export async function runNow(
  deps: AppDeps,
  jobs: JobRunner,
  p: Principal,
  row: ScheduleRow,
  first: number,
  count: number,
): Promise<JobRow[]> {
  if (count > 1 && !row.cron) {
    throw badRequest(`"num" can be more than 1 only for a schedule with a cron; "${row.name}" runs only on demand.`);
  }
  await requireDatabase(deps.storage.db, p.accountId, row.database_name);
  const slots = runSlots(row, first, count);
  const queued = await transaction(deps.storage, async (tx) => {
    const rows: JobRow[] = [];
    for (const slot of slots) rows.push(await enqueueRun(jobs, row, slot, p.userId, tx));
    return rows;
  });
  jobs.wake();
  return queued;
}
