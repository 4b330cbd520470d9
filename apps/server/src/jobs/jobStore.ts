import { userColumnOf, userIdsNamed } from '../accounts';
import { conflict, notFound } from '../platform/errors';
import { dialectOf, type Executor, isUniqueViolation, many, one, type Row, run, sql } from '../platform/storage';
import type { QueuedJob } from './fairQueue';

/** The SQL of the `jobs` table. Reads for callers are scoped by account; the runner works by job id. */

export const JOB_STATUSES = ['queued', 'running', 'success', 'error', 'killed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const FINISHED: readonly JobStatus[] = ['success', 'error', 'killed'];

/**
 * A `jobs` row (platform/storage/controlTables/jobs.ts), its status narrowed to the states the table allows.
 * `params_json` holds kind-specific parameters (a JSON object, e.g. a bulk import's session); `runner` the
 * node that claimed the job (runner.ts), null until one did; `kill_requested_at` when a node other than the
 * runner was asked to kill it; `schedule_id`, `schedule_name` and `scheduled_at` a scheduled query's run;
 * `result_url` where a successful query's rows go (a `td://` URL or a result connection's name), as given.
 */
export type JobRow = Omit<Row<'jobs'>, 'status'> & { status: JobStatus };

/** A job row with its issuer's name, as the job objects show it. */
export type JobView = JobRow & { user_name: string | null };

export interface NewJob {
  accountId: number;
  /** Null for a schedule's run whose creator has been removed. */
  userId: number | null;
  type: string;
  database: string | null;
  query: string | null;
  params?: Record<string, unknown>;
  priority?: number;
  retryLimit?: number;
  domainKey?: string | null;
  /** A run of a scheduled query, for the slot `scheduledAt` (ms). */
  schedule?: { id: number; name: string; scheduledAt: number } | null;
  resultUrl?: string | null;
}

/** Inserts a queued job. A domain key already used in the account is a 409 naming that job. */
export async function insertJob(ex: Executor, job: NewJob, now: number): Promise<JobRow> {
  const taken = async () => {
    const existing = await ex
      .selectFrom('jobs')
      .select('id')
      .where('account_id', '=', job.accountId)
      .where('domain_key', '=', job.domainKey ?? '')
      .executeTakeFirst();
    return existing
      ? conflict(`The domain key "${job.domainKey}" was already used by job ${existing.id}.`, {
          conflicts_with: String(existing.id),
        })
      : null;
  };
  if (job.domainKey) {
    const refused = await taken();
    if (refused) throw refused;
  }
  let id: number;
  try {
    const inserted = await ex
      .insertInto('jobs')
      .values({
        account_id: job.accountId,
        user_id: job.userId,
        type: job.type,
        database_name: job.database,
        query: job.query,
        params_json: job.params ? JSON.stringify(job.params) : null,
        status: 'queued',
        priority: job.priority ?? 0,
        retry_limit: job.retryLimit ?? 0,
        domain_key: job.domainKey || null,
        schedule_id: job.schedule?.id ?? null,
        schedule_name: job.schedule?.name ?? null,
        scheduled_at: job.schedule?.scheduledAt ?? null,
        result_url: job.resultUrl || null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = Number(inserted.id);
  } catch (err) {
    // Another request took the domain key between the check and the insert.
    if (job.domainKey && isUniqueViolation(err) && !ex.isTransaction) {
      const refused = await taken();
      if (refused) throw refused;
    }
    throw err;
  }
  return (await jobById(ex, id)) as JobRow;
}

/** What a read of `status` gives: one of JOB_STATUSES, the only values the table's CHECK admits. */
type Statused = { status: JobStatus };

const VIEW = sql`SELECT jobs.*, ${userColumnOf('name', 'jobs.user_id')} AS user_name FROM jobs`;

async function findJob(ex: Executor, accountId: number, id: number): Promise<JobView | null> {
  return (await one<JobView>(ex, sql`${VIEW} WHERE jobs.account_id = ${accountId} AND jobs.id = ${id}`)) ?? null;
}

/** The account's job; a missing id or another account's job is the same 404. */
export async function requireJob(ex: Executor, accountId: number, id: string | number): Promise<JobView> {
  const n = Number(id);
  const row = Number.isSafeInteger(n) && n > 0 ? await findJob(ex, accountId, n) : null;
  if (!row) throw notFound('job');
  return row;
}

export async function findJobByDomainKey(ex: Executor, accountId: number, domainKey: string): Promise<JobView | null> {
  return (
    (await one<JobView>(ex, sql`${VIEW} WHERE jobs.account_id = ${accountId} AND jobs.domain_key = ${domainKey}`)) ??
    null
  );
}

export interface JobFilter {
  from: number;
  to: number;
  status: JobStatus | null;
  /** Only jobs of this type (presto, bulk_import, …) or database, when given. */
  type?: string | null;
  database?: string | null;
  /** Only the runs of this schedule (its history). */
  scheduleId?: number | null;
  /** Only the jobs of the account's user of this name. */
  userName?: string | null;
}

/** Newest first; `from` and `to` are indexes into that order, `to` included (TD's paging). */
export async function listJobs(
  ex: Executor,
  accountId: number,
  opts: JobFilter,
): Promise<{ jobs: JobView[]; count: number }> {
  const conditions = [sql`jobs.account_id = ${accountId}`];
  for (const [column, value] of [
    ['status', opts.status],
    ['type', opts.type],
    ['database_name', opts.database],
    ['schedule_id', opts.scheduleId],
  ] as const) {
    if (!value) continue;
    conditions.push(sql`${sql.ref(`jobs.${column}`)} = ${value}`);
  }
  if (opts.userName) {
    conditions.push(sql`jobs.user_id IN ${userIdsNamed(accountId, opts.userName)}`);
  }
  const where = sql.join(conditions, sql` AND `);
  const jobs = await many<JobView>(
    ex,
    sql`${VIEW} WHERE ${where} ORDER BY jobs.id DESC LIMIT ${opts.to - opts.from + 1} OFFSET ${opts.from}`,
  );
  const counted = await one<{ n: number }>(ex, sql`SELECT COUNT(*) AS n FROM jobs WHERE ${where}`);
  return { jobs, count: Number(counted?.n ?? 0) };
}

/** The job by id, whatever its account (the runner's view). */
export async function jobById(ex: Executor, id: number): Promise<JobRow | null> {
  const row = await ex.selectFrom('jobs').selectAll().where('id', '=', id).$narrowType<Statused>().executeTakeFirst();
  return row ?? null;
}

/** The queued jobs among `types`, as the fair scheduler needs them (fairQueue.ts). */
export async function queuedJobs(ex: Executor, types: readonly string[]): Promise<QueuedJob[]> {
  if (types.length === 0) return [];
  return ex
    .selectFrom('jobs')
    .select(['id', 'account_id', 'user_id', 'priority'])
    .where('status', '=', 'queued')
    .where('type', 'in', types)
    .orderBy('id')
    .execute();
}

/** How many jobs run now on every node, by account and user (the fair queue's limits count them all). */
export async function runningCounts(
  ex: Executor,
  accountId?: number,
): Promise<{ account_id: number; user_id: number | null; n: number }[]> {
  const rows = await ex
    .selectFrom('jobs')
    .select((s) => ['account_id', 'user_id', s.fn.countAll().as('n')])
    .where('status', '=', 'running')
    .$if(accountId !== undefined, (q) => q.where('account_id', '=', accountId as number))
    .groupBy(['account_id', 'user_id'])
    .orderBy('account_id')
    .orderBy('user_id')
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/**
 * Claims a queued job for node `runner` and moves it to running; null when it was not queued any more
 * (another node claimed it, or it was killed meanwhile). The row is locked first where the backend can
 * (FOR UPDATE SKIP LOCKED on PostgreSQL: a node never waits for another's claim), and the UPDATE
 * re-checks the status, so exactly one node claims each job.
 */
export async function claimJob(
  ex: Executor,
  job: Pick<JobRow, 'id' | 'account_id'>,
  runner: string,
  now: number,
): Promise<JobRow | null> {
  const d = dialectOf(ex);
  const row = await one<JobRow>(
    ex,
    sql`UPDATE jobs SET status = 'running', runner = ${runner}, start_at = ${now}, updated_at = ${now},
          cmdout = ${`started at ${new Date(now).toISOString()}\n`}
        WHERE account_id = ${job.account_id} AND status = 'queued'
          AND id = (SELECT id FROM jobs WHERE account_id = ${job.account_id} AND id = ${job.id} AND status = 'queued'
                    ${sql.raw(d.forUpdateSkipLocked)})
        RETURNING *`,
  );
  return row ?? null;
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
export async function finishJob(
  ex: Executor,
  job: Pick<JobRow, 'id' | 'account_id'>,
  end: Finish,
  now: number,
): Promise<boolean> {
  const changed = await run(
    ex,
    sql`UPDATE jobs SET status = ${end.status}, end_at = ${now}, updated_at = ${now},
          stderr = COALESCE(${end.stderr ?? null}, stderr), cmdout = COALESCE(cmdout, '') || COALESCE(${end.cmdout ?? null}, ''),
          result_path = ${end.resultPath ?? null}, result_size = ${end.resultSize ?? null},
          num_records = ${end.numRecords ?? null}, hive_result_schema = ${end.hiveResultSchema ?? null},
          cpu_time = ${end.cpuTime ?? null}
        WHERE id = ${job.id} AND account_id = ${job.account_id} AND status IN ('queued', 'running')`,
  );
  return changed === 1;
}

/** Appends progress to a running job's `debug.cmdout`, which `td query -w` prints as it goes. */
export async function appendCmdout(
  ex: Executor,
  job: Pick<JobRow, 'id' | 'account_id'>,
  text: string,
  now: number,
): Promise<void> {
  await run(
    ex,
    sql`UPDATE jobs SET cmdout = COALESCE(cmdout, '') || ${text}, updated_at = ${now}
        WHERE id = ${job.id} AND account_id = ${job.account_id} AND status = 'running'`,
  );
}

/** Asks the node running a job to kill it (it polls, runner.ts); false when the job is not running. */
export async function requestKill(ex: Executor, id: number, now: number): Promise<boolean> {
  const { numUpdatedRows } = await ex
    .updateTable('jobs')
    .set({ kill_requested_at: now })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('kill_requested_at', 'is', null)
    .executeTakeFirst();
  return Number(numUpdatedRows) === 1;
}

/**
 * Jobs a previous process of node `runner` left running; start-up ends them (runner.ts). Jobs from before
 * runners were recorded (no runner) count as this node's: they come from a single-node install.
 */
export async function runningJobs(ex: Executor, runner: string): Promise<JobRow[]> {
  return ex
    .selectFrom('jobs')
    .selectAll()
    .where('status', '=', 'running')
    .where((w) => w.or([w('runner', '=', runner), w('runner', 'is', null)]))
    .orderBy('id')
    .$narrowType<Statused>()
    .execute();
}

/** Where the given jobs are (the runner follows jobs it waits for or runs, whichever node ends them). */
export async function jobStates(
  ex: Executor,
  ids: readonly number[],
): Promise<{ id: number; status: JobStatus; kill_requested_at: number | null }[]> {
  if (ids.length === 0) return [];
  return ex
    .selectFrom('jobs')
    .select(['id', 'status', 'kill_requested_at'])
    .where('id', 'in', ids)
    .orderBy('id')
    .$narrowType<Statused>()
    .execute();
}

/** The states of the account's jobs among `ids` (a saved query's last run); jobs of other accounts are left out. */
export async function accountJobStates(
  ex: Executor,
  accountId: number,
  ids: readonly number[],
): Promise<{ id: number; status: JobStatus }[]> {
  if (ids.length === 0) return [];
  return ex
    .selectFrom('jobs')
    .select(['id', 'status'])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .orderBy('id')
    .$narrowType<Statused>()
    .execute();
}

/**
 * Runs of schedules that failed since `since` and may run again: fewer attempts at their slot than 1 + their
 * `retry_limit`, and no later attempt at it yet. The scheduler queues the next attempt (schedules/).
 */
export async function retriableScheduledJobs(ex: Executor, since: number): Promise<JobRow[]> {
  return many<JobRow>(
    ex,
    sql`SELECT j.* FROM jobs j
        WHERE j.schedule_id IS NOT NULL AND j.status = 'error' AND j.end_at >= ${since}
          AND j.retry_limit >= (SELECT COUNT(*) FROM jobs k WHERE k.account_id = j.account_id
                                  AND k.schedule_id = j.schedule_id AND k.scheduled_at = j.scheduled_at)
          AND NOT EXISTS (SELECT 1 FROM jobs k WHERE k.account_id = j.account_id AND k.schedule_id = j.schedule_id
                            AND k.scheduled_at = j.scheduled_at AND k.id > j.id)
        ORDER BY j.id`,
  );
}

/** How many of the account's jobs created since `since` (Unix ms) are in each state (the overview). */
export async function jobCountsByState(
  ex: Executor,
  accountId: number,
  since: number,
): Promise<{ status: JobStatus; jobs: number }[]> {
  const rows = await ex
    .selectFrom('jobs')
    .select((s) => ['status', s.fn.countAll().as('n')])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', since)
    .groupBy('status')
    .orderBy('status')
    .$narrowType<Statused>()
    .execute();
  return rows.map((r) => ({ status: r.status, jobs: Number(r.n) }));
}
