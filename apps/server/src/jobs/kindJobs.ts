import { dialectOf, type Executor, many, sql } from '../platform/storage';
import type { JobRow, JobStatus } from './jobStore';

/**
 * What other features read and write of the `jobs` table for the jobs of their own kinds (a bulk load's runs,
 * a warehouse sync's attempts, a parent segment's builds), written here, where the table is.
 */

/** The jobs of one kind whose parameter `paramKey` (an integer of `params_json`) is one of `values`. */
export interface KindJobsQuery {
  accountId: number;
  type: string;
  paramKey: string;
  values: number[];
  /** Only jobs in one of these states. */
  statuses?: readonly JobStatus[];
  /** Only jobs created at or after this time (ms). */
  createdSince?: number;
}

/** Newest first. */
export async function kindJobs(ex: Executor, q: KindJobsQuery): Promise<JobRow[]> {
  if (q.values.length === 0 || q.statuses?.length === 0) return [];
  if (!/^[a-z_]+$/.test(q.paramKey)) throw new Error(`Not a parameter name: ${q.paramKey}`);
  const param = sql`CAST(${sql.raw(dialectOf(ex).jsonText('params_json', q.paramKey))} AS BIGINT)`;
  const conditions = [
    sql`account_id = ${q.accountId}`,
    sql`type = ${q.type}`,
    sql`${param} IN (${sql.join(q.values)})`,
    ...(q.statuses ? [sql`status IN (${sql.join([...q.statuses])})`] : []),
    ...(q.createdSince !== undefined ? [sql`created_at >= ${q.createdSince}`] : []),
  ];
  return many<JobRow>(ex, sql`SELECT * FROM jobs WHERE ${sql.join(conditions, sql` AND `)} ORDER BY id DESC`);
}

/** The account's jobs of these ids, oldest first. */
export async function jobsByIds(ex: Executor, accountId: number, ids: number[]): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  return ex
    .selectFrom('jobs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .orderBy('id')
    .$narrowType<Pick<JobRow, 'status'>>()
    .execute();
}

/** Replaces a job's kind-specific parameters (what a job records of its run, e.g. a bulk load's target). */
export async function setJobParams(
  ex: Executor,
  job: Pick<JobRow, 'id' | 'account_id'>,
  params: object,
): Promise<void> {
  await ex
    .updateTable('jobs')
    .set({ params_json: JSON.stringify(params) })
    .where('id', '=', job.id)
    .where('account_id', '=', job.account_id)
    .execute();
}

/** A job's column by id, as a scalar subquery of another feature's statement (a parent segment's build). */
export function jobColumnOf(column: 'status' | 'created_at', jobIdRef: string, accountIdRef: string) {
  return sql`(SELECT ${sql.ref(`jobs.${column}`)} FROM jobs
    WHERE jobs.id = ${sql.ref(jobIdRef)} AND jobs.account_id = ${sql.ref(accountIdRef)})`;
}
