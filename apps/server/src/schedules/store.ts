import { userColumnOf } from '../accounts';
import { conflict, notFound } from '../platform/errors';
import { type Executor, insertId, isUniqueViolation, many, one, run, sql } from '../platform/storage';

/** The SQL of the `schedules` table (migration 16). Every read for a caller is scoped by account. */

export interface ScheduleRow {
  id: number;
  account_id: number;
  user_id: number | null;
  name: string;
  cron: string | null;
  timezone: string;
  /** Seconds after its slot a run starts. */
  delay: number;
  type: string;
  database_name: string;
  query: string;
  priority: number;
  retry_limit: number;
  /** Where a run's rows go, as given ("" for none). */
  result: string;
  engine_version: string | null;
  /** Slots at or before this time (ms) are not fired again: the last one fired, or when the cron took effect. */
  fired_through: number;
  /** When it was paused (ms); null while it runs on its cron. */
  paused_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A schedule with its creator's name, as the wire shows it. */
export type ScheduleView = ScheduleRow & { user_name: string | null };

/** The settings a client gives (create) or changes (update). */
export type ScheduleSettings = Pick<
  ScheduleRow,
  | 'name'
  | 'cron'
  | 'timezone'
  | 'delay'
  | 'type'
  | 'database_name'
  | 'query'
  | 'priority'
  | 'retry_limit'
  | 'result'
  | 'engine_version'
>;

const VIEW = sql`SELECT schedules.*, ${userColumnOf('name', 'schedules.user_id', 'schedules.account_id')} AS user_name
  FROM schedules`;

const taken = (name: string) =>
  conflict(`A schedule named "${name}" already exists. Choose another name, or update that schedule.`);

async function findSchedule(ex: Executor, accountId: number, name: string): Promise<ScheduleView | null> {
  return (
    (await one<ScheduleView>(
      ex,
      sql`${VIEW} WHERE schedules.account_id = ${accountId} AND schedules.name = ${name}`,
    )) ?? null
  );
}

/** The account's schedule of that name; anything else (missing, another account's) is the same 404. */
export async function requireSchedule(ex: Executor, accountId: number, name: string): Promise<ScheduleView> {
  const row = await findSchedule(ex, accountId, name);
  if (!row) throw notFound('schedule');
  return row;
}

export function listSchedules(ex: Executor, accountId: number): Promise<ScheduleView[]> {
  return many<ScheduleView>(ex, sql`${VIEW} WHERE schedules.account_id = ${accountId} ORDER BY schedules.name`);
}

export async function countSchedules(ex: Executor, accountId: number): Promise<number> {
  const row = await one<{ n: number }>(ex, sql`SELECT COUNT(*) AS n FROM schedules WHERE account_id = ${accountId}`);
  return Number(row?.n ?? 0);
}

export async function insertSchedule(
  ex: Executor,
  accountId: number,
  userId: number,
  s: ScheduleSettings,
  now: number,
): Promise<number> {
  try {
    return await insertId(
      ex,
      sql`INSERT INTO schedules (account_id, user_id, name, cron, timezone, delay, type, database_name, query, priority,
            retry_limit, result, engine_version, fired_through, created_at, updated_at)
          VALUES (${accountId}, ${userId}, ${s.name}, ${s.cron}, ${s.timezone}, ${s.delay}, ${s.type}, ${s.database_name},
            ${s.query}, ${s.priority}, ${s.retry_limit}, ${s.result}, ${s.engine_version}, ${now}, ${now}, ${now})
          RETURNING id`,
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(s.name);
    throw err;
  }
}

/**
 * Saves new settings; `firedThrough` moves when the cron or time zone changed or the schedule resumed
 * (earlier slots never fire); `pausedAt` is when it was paused, null while it runs.
 */
export async function saveSchedule(
  ex: Executor,
  row: ScheduleRow,
  s: ScheduleSettings,
  timing: { firedThrough: number; pausedAt: number | null },
  now: number,
): Promise<void> {
  try {
    await run(
      ex,
      sql`UPDATE schedules SET name = ${s.name}, cron = ${s.cron}, timezone = ${s.timezone}, delay = ${s.delay},
            type = ${s.type}, database_name = ${s.database_name}, query = ${s.query}, priority = ${s.priority},
            retry_limit = ${s.retry_limit}, result = ${s.result}, engine_version = ${s.engine_version},
            fired_through = ${timing.firedThrough}, paused_at = ${timing.pausedAt}, updated_at = ${now}
          WHERE id = ${row.id} AND account_id = ${row.account_id}`,
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(s.name);
    throw err;
  }
}

export async function deleteSchedule(ex: Executor, row: ScheduleRow): Promise<void> {
  await run(ex, sql`DELETE FROM schedules WHERE id = ${row.id} AND account_id = ${row.account_id}`);
}

/** Every account's schedules that have a cron and are not paused (the scheduler's scan). */
export function cronSchedules(ex: Executor): Promise<ScheduleRow[]> {
  return many<ScheduleRow>(ex, sql`SELECT * FROM schedules WHERE cron IS NOT NULL AND paused_at IS NULL ORDER BY id`);
}

/** A schedule by id, whatever its account (the scheduler's view). */
export async function scheduleById(ex: Executor, accountId: number, id: number): Promise<ScheduleRow | null> {
  return (
    (await one<ScheduleRow>(ex, sql`SELECT * FROM schedules WHERE id = ${id} AND account_id = ${accountId}`)) ?? null
  );
}

/** Records that the slot fired; false when it was not ahead of the last one (another firing got there). */
export async function markFired(ex: Executor, row: ScheduleRow, slot: number): Promise<boolean> {
  const changed = await run(
    ex,
    sql`UPDATE schedules SET fired_through = ${slot}
        WHERE id = ${row.id} AND account_id = ${row.account_id} AND fired_through < ${slot}`,
  );
  return changed === 1;
}
