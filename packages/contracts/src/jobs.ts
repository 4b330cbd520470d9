import { z } from 'zod';
import { v3Timestamp } from './data';

/**
 * Wire shapes of the job routes (`/v3/job/*`), per td-api-v3.openapi.yml and wire-compat §1.6/§2.3:
 * ids are strings, times are `… UTC` strings ("" while a job has not started or ended),
 * `hive_result_schema` is a JSON string and `debug` an object.
 */

export const jobStatus = z.enum(['queued', 'running', 'success', 'error', 'killed']);
export type JobStatus = z.infer<typeof jobStatus>;

/** Start and end times are empty strings until they happen (OAS `EmptyString`). */
export const jobTime = z.union([v3Timestamp, z.literal('')]);

/** A job (OAS `Job`), as /v3/job/list shows it. */
export const jobObject = z.object({
  job_id: z.string(),
  type: z.string(),
  status: jobStatus,
  database: z.string().nullable(),
  query: z.string().nullable(),
  url: z.string(),
  user_name: z.string(),
  priority: z.number().int().min(-2).max(2),
  retry_limit: z.number().int().min(0).max(32),
  result: z.string(),
  organization: z.string().nullable(),
  created_at: v3Timestamp,
  updated_at: v3Timestamp,
  start_at: jobTime,
  end_at: jobTime,
  cpu_time: z.number().int().nullable(),
  duration: z.number().int().nullable(),
  result_size: z.number().int().nullable(),
  num_records: z.number().int().nullable(),
  /** JSON array of `[name, type]` once the job succeeded; null before. */
  hive_result_schema: z.string().nullable(),
  linked_result_export_job_id: z.number().int().nullable(),
  result_export_target_job_id: z.number().int().nullable(),
  /** Where a queued job stands in the fair order of the job slots (1 starts next); null once it runs. */
  queue_position: z.number().int().min(1).nullable(),
  /** A scheduled query's run: the schedule's name when it was queued, and the time it ran for. */
  schedule_name: z.string().nullable(),
  scheduled_at: jobTime,
});
export type Job = z.infer<typeof jobObject>;

/** GET /v3/job/show/:id: the job with its output so far. */
export const jobDetail = jobObject.extend({
  debug: z.object({ cmdout: z.string().nullable(), stderr: z.string().nullable() }),
});
export type JobDetail = z.infer<typeof jobDetail>;

/** GET /v3/job/status/:id (OAS `JobStatus`, no other keys). */
export const jobStatusObject = z.strictObject({
  job_id: z.string(),
  status: jobStatus,
  created_at: v3Timestamp,
  updated_at: v3Timestamp,
  start_at: jobTime,
  end_at: jobTime,
  cpu_time: z.number().int().nullable(),
  duration: z.number().int().nullable(),
  result_size: z.number().int().nullable(),
  num_records: z.number().int().nullable(),
});
export type JobStatusObject = z.infer<typeof jobStatusObject>;

export const jobList = z.object({
  jobs: z.array(jobObject),
  count: z.number().int(),
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
});
export type JobList = z.infer<typeof jobList>;

/** POST /v3/job/issue/:type/:db. */
export const jobIssued = z.object({ job: z.string(), job_id: z.string(), database: z.string() });
export type JobIssued = z.infer<typeof jobIssued>;

/** POST /v3/job/kill/:id. */
export const jobKilled = z.object({ job_id: z.string(), former_status: jobStatus });
export type JobKilled = z.infer<typeof jobKilled>;

/** Formats of GET /v3/job/result/:id. */
export const resultFormat = z.enum(['json', 'csv', 'tsv', 'msgpack', 'msgpack.gz']);
export type ResultFormat = z.infer<typeof resultFormat>;
