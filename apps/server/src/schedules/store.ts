import { userColumnOf } from '../accounts';
import { conflict, notFound } from '../platform/errors';
import { type Executor, isUniqueViolation, type Row } from '../platform/storage';

/** The SQL of the `schedules` table (migration 16). Every read for a caller is scoped by account. */

/**
 * A row of `schedules` (platform/storage/controlTables/schedules.ts). `delay` is the seconds after its slot a
 * run starts; `result` where a run's rows go, as given ("" for none); slots at or before `fired_through` (ms)
 * are not fired again (the last one fired, or when the cron took effect); `paused_at` is when it was paused
 * (ms), null while it runs on its cron.
 */
export type ScheduleRow = Row<'schedules'>;

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

/** The settings' columns alone: `s` may be a whole row, whose other columns an INSERT or UPDATE must not take. */
const settingsOf = (s: ScheduleSettings): ScheduleSettings => ({
  name: s.name,
  cron: s.cron,
  timezone: s.timezone,
  delay: s.delay,
  type: s.type,
  database_name: s.database_name,
  query: s.query,
  priority: s.priority,
  retry_limit: s.retry_limit,
  result: s.result,
  engine_version: s.engine_version,
});

/** Schedules with their creator's name, for reads the wire shows. */
const view = (ex: Executor) =>
  ex
    .selectFrom('schedules')
    .selectAll('schedules')
    .select(userColumnOf('name', 'schedules.user_id', 'schedules.account_id').$castTo<string | null>().as('user_name'));

const taken = (name: string) =>
  conflict(`A schedule named "${name}" already exists. Choose another name, or update that schedule.`);

async function findSchedule(ex: Executor, accountId: number, name: string): Promise<ScheduleView | null> {
  const row = await view(ex)
    .where('schedules.account_id', '=', accountId)
    .where('schedules.name', '=', name)
    .executeTakeFirst();
  return row ?? null;
}

/** The account's schedule of that name; anything else (missing, another account's) is the same 404. */
export async function requireSchedule(ex: Executor, accountId: number, name: string): Promise<ScheduleView> {
  const row = await findSchedule(ex, accountId, name);
  if (!row) throw notFound('schedule');
  return row;
}

export function listSchedules(ex: Executor, accountId: number): Promise<ScheduleView[]> {
  return view(ex).where('schedules.account_id', '=', accountId).orderBy('schedules.name').execute();
}

export async function countSchedules(ex: Executor, accountId: number): Promise<number> {
  const row = await ex
    .selectFrom('schedules')
    .select((s) => s.fn.countAll().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
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
    const { id } = await ex
      .insertInto('schedules')
      .values({
        ...settingsOf(s),
        account_id: accountId,
        user_id: userId,
        fired_through: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
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
    await ex
      .updateTable('schedules')
      .set({ ...settingsOf(s), fired_through: timing.firedThrough, paused_at: timing.pausedAt, updated_at: now })
      .where('id', '=', row.id)
      .where('account_id', '=', row.account_id)
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(s.name);
    throw err;
  }
}

export async function deleteSchedule(ex: Executor, row: ScheduleRow): Promise<void> {
  await ex.deleteFrom('schedules').where('id', '=', row.id).where('account_id', '=', row.account_id).execute();
}

/** Every account's schedules that have a cron and are not paused (the scheduler's scan). */
export function cronSchedules(ex: Executor): Promise<ScheduleRow[]> {
  return ex
    .selectFrom('schedules')
    .selectAll()
    .where('cron', 'is not', null)
    .where('paused_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** A schedule by id, whatever its account (the scheduler's view). */
export async function scheduleById(ex: Executor, accountId: number, id: number): Promise<ScheduleRow | null> {
  const row = await ex
    .selectFrom('schedules')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ?? null;
}

/** Records that the slot fired; false when it was not ahead of the last one (another firing got there). */
export async function markFired(ex: Executor, row: ScheduleRow, slot: number): Promise<boolean> {
  const { numUpdatedRows } = await ex
    .updateTable('schedules')
    .set({ fired_through: slot })
    .where('id', '=', row.id)
    .where('account_id', '=', row.account_id)
    .where('fired_through', '<', slot)
    .executeTakeFirst();
  return Number(numUpdatedRows) === 1;
}
