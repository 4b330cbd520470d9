import type { Db } from '../platform/db';
import { conflict, notFound } from '../platform/errors';
import type { QueuedJob } from './fairQueue';

/** The SQL of the `jobs` table. Reads for callers are scoped by account; the runner works by job id. */

export const JOB_STATUSES = ['queued', 'running', 'success', 'error', 'killed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const FINISHED: readonly JobStatus[] = ['success', 'error', 'killed'];

export interface JobRow {
  id: number;
  account_id: number;
  user_id: number | null;
  type: string;
  database_name: string | null;
  query: string | null;
  /** Kind-specific parameters (JSON object), e.g. a bulk import's session. */
  params_json: string | null;
  status: JobStatus;
  priority: number;
  retry_limit: number;
  domain_key: string | null;
  created_at: number;
  updated_at: number;
  start_at: number | null;
  end_at: number | null;
  cpu_time: number | null;
  result_path: string | null;
  result_size: number | null;
  num_records: number | null;
  hive_result_schema: string | null;
  cmdout: string | null;
  stderr: string | null;
}

/** A job row with its issuer's name, as the job objects show it. */
export type JobView = JobRow & { user_name: string | null };

export interface NewJob {
  accountId: number;
  userId: number;
  type: string;
  database: string | null;
  query: string | null;
  params?: Record<string, unknown>;
  priority?: number;
  retryLimit?: number;
  domainKey?: string | null;
}

/** Inserts a queued job. A domain key already used in the account is a 409 naming that job. */
export function insertJob(db: Db, job: NewJob, now: number): JobRow {
  return db.transaction(() => {
    if (job.domainKey) {
      const existing = db
        .prepare('SELECT id FROM jobs WHERE account_id = ? AND domain_key = ?')
        .get(job.accountId, job.domainKey) as { id: number } | undefined;
      if (existing) {
        throw conflict(`The domain key "${job.domainKey}" was already used by job ${existing.id}.`, {
          conflicts_with: String(existing.id),
        });
      }
    }
    const result = db
      .prepare(
        `INSERT INTO jobs (account_id, user_id, type, database_name, query, params_json, status, priority, retry_limit,
           domain_key, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
      )
      .run(
        job.accountId,
        job.userId,
        job.type,
        job.database,
        job.query,
        job.params ? JSON.stringify(job.params) : null,
        job.priority ?? 0,
        job.retryLimit ?? 0,
        job.domainKey || null,
        now,
        now,
      );
    return db.prepare('SELECT * FROM jobs WHERE id = ?').get(result.lastInsertRowid) as JobRow;
  })();
}

const VIEW = 'SELECT jobs.*, users.name AS user_name FROM jobs LEFT JOIN users ON users.id = jobs.user_id';

export function findJob(db: Db, accountId: number, id: number): JobView | null {
  const row = db.prepare(`${VIEW} WHERE jobs.account_id = ? AND jobs.id = ?`).get(accountId, id) as JobView | undefined;
  return row ?? null;
}

/** The account's job; a missing id or another account's job is the same 404. */
export function requireJob(db: Db, accountId: number, id: string | number): JobView {
  const n = Number(id);
  const row = Number.isSafeInteger(n) && n > 0 ? findJob(db, accountId, n) : null;
  if (!row) throw notFound('job');
  return row;
}

export function findJobByDomainKey(db: Db, accountId: number, domainKey: string): JobView | null {
  const row = db.prepare(`${VIEW} WHERE jobs.account_id = ? AND jobs.domain_key = ?`).get(accountId, domainKey) as
    | JobView
    | undefined;
  return row ?? null;
}

export interface JobFilter {
  from: number;
  to: number;
  status: JobStatus | null;
  /** Only jobs of this type (presto, bulk_import, …) or database, when given. */
  type?: string | null;
  database?: string | null;
}

/** Newest first; `from` and `to` are indexes into that order, `to` included (TD's paging). */
export function listJobs(db: Db, accountId: number, opts: JobFilter): { jobs: JobView[]; count: number } {
  const conditions = ['jobs.account_id = ?'];
  const args: (string | number)[] = [accountId];
  for (const [column, value] of [
    ['status', opts.status],
    ['type', opts.type],
    ['database_name', opts.database],
  ] as const) {
    if (!value) continue;
    conditions.push(`jobs.${column} = ?`);
    args.push(value);
  }
  const where = conditions.join(' AND ');
  const jobs = db
    .prepare(`${VIEW} WHERE ${where} ORDER BY jobs.id DESC LIMIT ? OFFSET ?`)
    .all(...args, opts.to - opts.from + 1, opts.from) as JobView[];
  const { n } = db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE ${where}`).get(...args) as { n: number };
  return { jobs, count: n };
}

/** The job by id, whatever its account (the runner's view). */
export function jobById(db: Db, id: number): JobRow | null {
  return (db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined) ?? null;
}

/** The queued jobs among `types`, as the fair scheduler needs them (fairQueue.ts). */
export function queuedJobs(db: Db, types: readonly string[]): QueuedJob[] {
  if (types.length === 0) return [];
  return db
    .prepare(
      `SELECT id, account_id, user_id, priority FROM jobs
       WHERE status = 'queued' AND type IN (${types.map(() => '?').join(', ')}) ORDER BY id`,
    )
    .all(...types) as QueuedJob[];
}

/** Moves a queued job to running; false when it was not queued any more (killed meanwhile). */
export function markRunning(db: Db, job: JobRow, now: number): boolean {
  const result = db
    .prepare(
      `UPDATE jobs SET status = 'running', start_at = ?, updated_at = ?, cmdout = ?
       WHERE id = ? AND account_id = ? AND status = 'queued'`,
    )
    .run(now, now, `started at ${new Date(now).toISOString()}\n`, job.id, job.account_id);
  return result.changes === 1;
}

export interface Finish {
  status: 'success' | 'error' | 'killed';
  stderr?: string | null;
  cmdout?: string | null;
  resultPath?: string | null;
  resultSize?: number | null;
  numRecords?: number | null;
  hiveResultSchema?: string | null;
  cpuTime?: number | null;
}

/** Ends an unfinished job; false when it had already ended (the first ending wins). */
export function finishJob(db: Db, job: Pick<JobRow, 'id' | 'account_id'>, end: Finish, now: number): boolean {
  const result = db
    .prepare(
      `UPDATE jobs SET status = ?, end_at = ?, updated_at = ?,
         stderr = COALESCE(?, stderr), cmdout = COALESCE(cmdout, '') || COALESCE(?, ''),
         result_path = ?, result_size = ?, num_records = ?, hive_result_schema = ?, cpu_time = ?
       WHERE id = ? AND account_id = ? AND status IN ('queued', 'running')`,
    )
    .run(
      end.status,
      now,
      now,
      end.stderr ?? null,
      end.cmdout ?? null,
      end.resultPath ?? null,
      end.resultSize ?? null,
      end.numRecords ?? null,
      end.hiveResultSchema ?? null,
      end.cpuTime ?? null,
      job.id,
      job.account_id,
    );
  return result.changes === 1;
}

/** Appends progress to a running job's `debug.cmdout`, which `td query -w` prints as it goes. */
export function appendCmdout(db: Db, job: Pick<JobRow, 'id' | 'account_id'>, text: string, now: number): void {
  db.prepare(
    `UPDATE jobs SET cmdout = COALESCE(cmdout, '') || ?, updated_at = ? WHERE id = ? AND account_id = ? AND status = 'running'`,
  ).run(text, now, job.id, job.account_id);
}

/** Jobs a previous process left running; start-up ends them (runner.ts). */
export function runningJobs(db: Db): JobRow[] {
  return db.prepare(`SELECT * FROM jobs WHERE status = 'running' ORDER BY id`).all() as JobRow[];
}
