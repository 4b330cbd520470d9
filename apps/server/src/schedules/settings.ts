import { z } from '@hono/zod-openapi';
import { DATA_NAME, SCHEDULE_NAME } from '@svc/contracts';
import { priorityParam, QUERY_TYPES, retryLimitParam } from '../jobs';
import { checkCron } from '../platform/cron';
import { badRequest } from '../platform/errors';
import { describeIssues } from '../platform/params';
import { canonicalTimeZone, checkTimezone } from '../platform/timeZone';
import type { ScheduleRow, ScheduleSettings } from './store';

/**
 * A schedule's settings from the parameters clients send (JSON, form, multipart or query string, all
 * merged): on create every setting has its default, on update only the given ones change. Ruby clients
 * send a setting they have no value for as an empty form field, which counts as not given, except for
 * `cron` and `result`, where an empty value clears them (on-demand only; no result output).
 */

/** The parameters as documented (the handler reads them merged, with `input()`). */
export const scheduleParams = z.object({
  name: z.string().optional().openapi({ description: 'update only: a new name' }),
  cron: z.string().nullable().optional().openapi({
    description: 'Five fields or @hourly, @daily, @weekly, @monthly, @yearly; empty: runs only on demand',
    example: '@daily',
  }),
  query: z.string().optional(),
  database: z.string().optional(),
  type: z.string().optional().openapi({ description: 'hive (default), presto or trino' }),
  timezone: z.string().optional().openapi({ description: 'IANA name, default UTC', example: 'Asia/Tokyo' }),
  delay: z.union([z.number(), z.string()]).optional().openapi({ description: 'Seconds after each slot, 0 to 604800' }),
  priority: z.union([z.number(), z.string()]).optional().openapi({ description: '-2 to 2, or VERY LOW … VERY HIGH' }),
  retry_limit: z
    .union([z.number(), z.string()])
    .optional()
    .openapi({ description: 'Retries of a failed run, 0 to 32' }),
  result: z.string().nullable().optional().openapi({
    description:
      'td://@/<database>/<table>, an https:// webhook, or a result connection holding either; empty for none',
  }),
  engine_version: z.string().optional().openapi({ description: 'Kept and shown; one engine runs every query' }),
  paused: z.union([z.boolean(), z.string()]).optional().openapi({
    description:
      'update only: true pauses the schedule (no slot fires; run still works), false resumes it from now (missed slots do not fire)',
  }),
});

const MAX_DELAY = 7 * 24 * 3600;

type Raw = Record<string, unknown>;

/** A value the client gave: present, not null, not an empty string. */
const given = (raw: Raw, key: string) => raw[key] !== undefined && raw[key] !== null && raw[key] !== '';

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);

function parsed<T>(schema: z.ZodType<T>, v: unknown): T {
  const result = schema.safeParse(v);
  if (!result.success) {
    // The messages name the field themselves ("Send \"priority\" as …").
    throw badRequest(describeIssues(result.error).replace(/^the input: /, ''));
  }
  return result.data;
}

export function checkScheduleName(name: string): string {
  if (!SCHEDULE_NAME.test(name) || name.trim() === '') {
    throw badRequest('"name": use 1 to 255 characters, without slashes or control characters.');
  }
  return name;
}

function checkType(v: unknown): string {
  const type = (text(v) ?? '').toLowerCase();
  if (!(QUERY_TYPES as readonly string[]).includes(type)) {
    throw badRequest(`"type" must be one of ${QUERY_TYPES.join(', ')}, not "${String(v).slice(0, 40)}".`);
  }
  return type;
}

function checkDelay(v: unknown): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > MAX_DELAY) {
    throw badRequest(`"delay" must be a whole number of seconds from 0 to ${MAX_DELAY}.`);
  }
  return n;
}

function checkQuery(v: unknown): string {
  const query = text(v);
  if (query === null || query.trim() === '') throw badRequest('Send "query": the SQL the schedule runs.');
  return query;
}

function checkDatabase(v: unknown): string {
  const name = text(v) ?? '';
  if (!DATA_NAME.test(name)) {
    throw badRequest(
      '"database" must name a database: lowercase letters, digits and underscores, 3 to 255 characters.',
    );
  }
  return name;
}

/**
 * The settings of a new schedule (`before` null) or the changed settings of one. Checks every field it
 * can alone; the database's existence, the query and the result target are checked by the caller.
 */
export function scheduleSettings(name: string, raw: Raw, before: ScheduleRow | null): ScheduleSettings {
  if (!before && !given(raw, 'query')) throw badRequest('Send "query": the SQL the schedule runs.');
  if (!before && !given(raw, 'database')) throw badRequest('Send "database": the database the query reads.');
  const timezoneGiven = given(raw, 'timezone') ? checkTimezone(text(raw.timezone) ?? '') : null;
  const timezone = timezoneGiven ? (canonicalTimeZone(timezoneGiven) ?? timezoneGiven) : (before?.timezone ?? 'UTC');
  const cronRaw = 'cron' in raw ? raw.cron : undefined;
  const cron = cronRaw === undefined ? (before?.cron ?? null) : checkCron(text(cronRaw), timezone);
  const engine = given(raw, 'engine_version') ? (text(raw.engine_version) ?? '').slice(0, 64) : undefined;
  return {
    name: given(raw, 'name') ? checkScheduleName(text(raw.name) ?? '') : name,
    cron,
    timezone,
    delay: given(raw, 'delay') ? checkDelay(raw.delay) : (before?.delay ?? 0),
    type: given(raw, 'type') ? checkType(raw.type) : (before?.type ?? 'hive'),
    database_name: given(raw, 'database') ? checkDatabase(raw.database) : (before?.database_name as string),
    query: given(raw, 'query') ? checkQuery(raw.query) : (before?.query as string),
    priority: given(raw, 'priority') ? parsed(priorityParam, raw.priority) : (before?.priority ?? 0),
    retry_limit: given(raw, 'retry_limit') ? parsed(retryLimitParam, raw.retry_limit) : (before?.retry_limit ?? 0),
    result: 'result' in raw ? (text(raw.result) ?? '').trim() : (before?.result ?? ''),
    engine_version: engine ?? before?.engine_version ?? null,
  };
}

/** `paused` of an update: true or false (also as text); absent or empty leaves it as it is. */
export function pausedParam(raw: Raw): boolean | undefined {
  if (!given(raw, 'paused')) return undefined;
  const v = raw.paused;
  if (v === true || v === 'true' || v === '1') return true;
  if (v === false || v === 'false' || v === '0') return false;
  throw badRequest(`"paused" must be true or false, not "${String(v).slice(0, 40)}".`);
}
