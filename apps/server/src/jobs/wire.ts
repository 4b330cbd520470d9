import type { Job, JobDetail, JobStatusObject } from '@svc/contracts';
import { v3Time } from '../platform/time';
import { maskUrl } from '../results/maskUrl';
import type { JobView } from './jobStore';

/** Job rows as the /v3 job objects (OAS `Job`, `JobStatus`; wire-compat §1.6, §2.3). */

const time = (ms: number | null) => (ms === null ? '' : v3Time(new Date(ms)));

/** Whole seconds from start to end, or to now while running; null before the start. */
function duration(row: JobView, now: number): number | null {
  if (row.start_at === null) return null;
  return Math.max(0, Math.round(((row.end_at ?? now) - row.start_at) / 1000));
}

function finished(row: JobView) {
  const success = row.status === 'success';
  return {
    result_size: success ? row.result_size : null,
    num_records: success ? row.num_records : null,
  };
}

export function toV3JobStatus(row: JobView, now: number): JobStatusObject {
  return {
    job_id: String(row.id),
    status: row.status,
    created_at: time(row.created_at),
    updated_at: time(row.updated_at),
    start_at: time(row.start_at),
    end_at: time(row.end_at),
    cpu_time: row.cpu_time,
    duration: duration(row, now),
    ...finished(row),
  };
}

/** `origin` makes `url` absolute: the job's page in the console; `position` is a queued job's place. */
export function toV3Job(row: JobView, now: number, origin: string, position: number | null = null): Job {
  return {
    job_id: String(row.id),
    type: row.type,
    status: row.status,
    database: row.database_name,
    query: row.query,
    url: `${origin}/jobs/${row.id}`,
    user_name: row.user_name ?? '',
    priority: row.priority,
    retry_limit: row.retry_limit,
    result: row.result_url ? maskUrl(row.result_url) : '',
    organization: null,
    created_at: time(row.created_at),
    updated_at: time(row.updated_at),
    start_at: time(row.start_at),
    end_at: time(row.end_at),
    cpu_time: row.cpu_time,
    duration: duration(row, now),
    ...finished(row),
    hive_result_schema: row.status === 'success' ? row.hive_result_schema : null,
    linked_result_export_job_id: null,
    result_export_target_job_id: null,
    queue_position: row.status === 'queued' ? position : null,
    schedule_name: row.schedule_name,
    scheduled_at: time(row.scheduled_at),
  };
}

export function toV3JobDetail(row: JobView, now: number, origin: string, position: number | null): JobDetail {
  return { ...toV3Job(row, now, origin, position), debug: { cmdout: row.cmdout, stderr: row.stderr } };
}
