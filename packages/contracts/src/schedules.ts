import { z } from 'zod';
import { v3Timestamp } from './data';
import { jobObject, jobTime } from './jobs';

/**
 * Wire shapes of scheduled queries (`/v3/schedule/*`), as td-client-ruby/python/node and the td CLI read
 * them and td-api-v3.openapi.yml describes them (`Schedule`, `ScheduledJob`): `created_at`, `next_time`
 * and `start` are ISO 8601 (`2026-01-01T00:00:00Z`); a run's `scheduled_at` is the job time form.
 */

/** 1 to 255 characters, none of them a control character or a slash (the name is a path segment). */
export const SCHEDULE_NAME = /^[^\p{Cc}/]{1,255}$/u;
export const scheduleName = z
  .string()
  .regex(SCHEDULE_NAME, 'Use 1 to 255 characters, without slashes or control characters.');

const isoSeconds = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

export const scheduleObject = z.object({
  name: z.string(),
  /** Null: the schedule runs only on demand (`/v3/schedule/run`). */
  cron: z.string().nullable(),
  timezone: z.string(),
  delay: z.number().int().min(0),
  type: z.string(),
  database: z.string(),
  query: z.string(),
  priority: z.number().int().min(-2).max(2),
  retry_limit: z.number().int().min(0).max(32),
  /** Where results go, credentials masked; "" for none. */
  result: z.string(),
  /** As given (one engine runs every query); "" when none was. */
  engine_version: z.string(),
  /** The next slot the schedule runs for (before its delay); null without a cron, or while paused. */
  next_time: isoSeconds.nullable(),
  /** Paused: no slot fires until it is resumed (this server's addition; the clients ignore it). */
  paused: z.boolean(),
  created_at: isoSeconds,
  user_name: z.string(),
});
export type Schedule = z.infer<typeof scheduleObject>;

export const scheduleList = z.object({ schedules: z.array(scheduleObject) });

/** POST /v3/schedule/create/:name: the schedule and `start`, its first slot (null without a cron). */
export const scheduleCreated = scheduleObject.extend({ start: isoSeconds.nullable() });

/** One run of a schedule: a job with the time it ran for. */
export const scheduledJob = z.object({ job_id: z.number().int(), type: z.string(), scheduled_at: v3Timestamp });

/** POST /v3/schedule/run/:name/:time. */
export const scheduleRuns = z.object({ jobs: z.array(scheduledJob) });

/** GET /v3/schedule/history/:name: the schedule's jobs, newest first. */
export const scheduleHistory = z.object({
  history: z.array(jobObject.extend({ scheduled_at: jobTime })),
  count: z.number().int(),
  from: z.number().int(),
  to: z.number().int(),
});
