import type { BulkLoadJob, BulkLoadSession, BulkLoadWireConfig } from '@svc/contracts';
import { z } from 'zod';
import { findDatabase, findTable } from '../data';
import { type KindJobsQuery, kindJobs } from '../jobs';
import type { AppDeps } from '../platform/context';
import { conflict, notFound } from '../platform/errors';
import { dialectOf, type Executor, one, type Row, sql, unlessTaken } from '../platform/storage';
import { parseStored } from '../platform/storedJson';
import { isoSeconds } from '../platform/time';
import { MASK, maskConfig, readConfig, type StoredConfig } from './config';

/** The control database's bulk load sessions, and the jobs they ran. Every query is scoped by account. */

/**
 * A row of `bulk_loads` (platform/storage/controlTables/bulkLoads.ts). `config_json` includes credentials and
 * is only ever sent masked; `user_id` created it (scheduled runs issue their jobs as this user);
 * `integration_id` is the data-warehouse integration that owns it (one session per table), if any;
 * `last_fired_at` when its cron last queued a run; `resync_requested_at` when a load from scratch was asked
 * for (the next run replaces the table and clears it), or null.
 */
export type BulkLoadRow = Row<'bulk_loads'>;

export type BulkLoadValues = Pick<
  BulkLoadRow,
  'name' | 'database_name' | 'table_name' | 'cron' | 'timezone' | 'delay' | 'start_at' | 'time_column' | 'config_json'
>;

/** The values' columns alone: `v` may be a whole row, whose other columns an INSERT or UPDATE must not take. */
const valuesOf = (v: BulkLoadValues): BulkLoadValues => ({
  name: v.name,
  database_name: v.database_name,
  table_name: v.table_name,
  cron: v.cron,
  timezone: v.timezone,
  delay: v.delay,
  start_at: v.start_at,
  time_column: v.time_column,
  config_json: v.config_json,
});

/** A source that takes its credentials from a stored authentication shows them masked too. */
function withAuthenticationMasked(config: Record<string, unknown>): Record<string, unknown> {
  const input = config.in as Record<string, unknown> | undefined;
  if (!input || input.svc_authentication_id === undefined || 'password' in input) return config;
  return { ...config, in: { ...input, password: MASK } };
}

/**
 * What reads show of the incremental state: `boundary_digests` (one digest per row at the last cursor
 * value) are summarised as their count; `start_time` is where the next run starts (the last successful
 * run's transaction time, or the session's `config.in.start_time` before any run).
 */
export function summariseDiffIn(
  diffIn: Record<string, unknown> | undefined,
  startTime: string,
): Record<string, unknown> {
  const { boundary_digests, ...rest } = diffIn ?? {};
  const out: Record<string, unknown> = { ...rest, start_time: rest.start_time ?? startTime };
  if (boundary_digests && typeof boundary_digests === 'object') {
    out.boundary_rows = Object.values(boundary_digests as Record<string, number>).reduce((a, b) => a + b, 0);
  }
  return out;
}

/** `config.in.start_time`: when the session began (rows are read from its first run on). */
const sessionStart = (row: BulkLoadRow) => isoSeconds(new Date(row.created_at));

/** The target column of the session's `add_time` filter (`time` unless it names another), or null. */
function addTimeTarget(filters: unknown): string | null {
  if (!Array.isArray(filters)) return null;
  const f = filters.find((x) => (x as { type?: unknown } | null)?.type === 'add_time') as
    | { to_column?: { name?: unknown } }
    | undefined;
  if (!f) return null;
  return typeof f.to_column?.name === 'string' ? f.to_column.name : 'time';
}

/**
 * The session's config as every read shows it (contract `bulkLoadWireConfig`): credentials masked,
 * `in.start_time` filled in, `exec` an object, and `out.time_column` always set: the session's time column,
 * or the `add_time` filter's target when the time is the upload time.
 */
export function wireConfig(row: BulkLoadRow): BulkLoadWireConfig {
  const config = withAuthenticationMasked(
    maskConfig(readConfig(row.config_json, 'bulk_loads.config_json')) as StoredConfig,
  );
  const input = (config.in ?? {}) as Record<string, unknown>;
  const out = (config.out ?? {}) as Record<string, unknown>;
  const exec = config.exec && typeof config.exec === 'object' && !Array.isArray(config.exec) ? config.exec : {};
  const timeColumn =
    (typeof out.time_column === 'string' ? out.time_column : null) ??
    row.time_column ??
    addTimeTarget(config.filters) ??
    'time';
  return {
    ...config,
    in: { ...input, type: String(input.type ?? ''), start_time: String(input.start_time ?? sessionStart(row)) },
    exec,
    out: {
      type: 'svc_internal',
      mode: 'append',
      plazma_dataset: row.database_name,
      ...out,
      time_column: timeColumn,
    },
  } as BulkLoadWireConfig;
}

export function toWireSession(row: BulkLoadRow): BulkLoadSession {
  const diff = maskConfig(readConfig(row.config_diff_json, 'bulk_loads.config_diff_json')) as StoredConfig;
  return {
    id: row.id,
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    delay: row.delay,
    start_at: row.start_at === null ? null : isoSeconds(new Date(row.start_at)),
    database: row.database_name,
    table: row.table_name,
    config: wireConfig(row),
    config_diff: { ...diff, in: summariseDiffIn(diff.in as Record<string, unknown> | undefined, sessionStart(row)) },
  };
}

/** The account's sessions, every column. */
const bulkLoadsOf = (ex: Executor, accountId: number) =>
  ex.selectFrom('bulk_loads').selectAll().where('account_id', '=', accountId);

export async function listBulkLoads(ex: Executor, accountId: number): Promise<BulkLoadRow[]> {
  return bulkLoadsOf(ex, accountId).orderBy('name').execute();
}

/** The account's session by id, or null. */
export async function bulkLoadById(ex: Executor, accountId: number, id: number): Promise<BulkLoadRow | null> {
  return (await bulkLoadsOf(ex, accountId).where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The account's session of that name; anything else is the spec's 404 body. */
export async function requireBulkLoad(ex: Executor, accountId: number, name: string): Promise<BulkLoadRow> {
  const row = await bulkLoadsOf(ex, accountId).where('name', '=', name).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

const taken = (name: string) =>
  conflict(`A bulk load session named "${name}" already exists. Choose another name or update that one.`);

/** Whether the account has another session of that name (checked first: a failed write would end a transaction). */
async function nameTaken(ex: Executor, accountId: number, name: string, except: number | null): Promise<boolean> {
  const row = await ex
    .selectFrom('bulk_loads')
    .select('id')
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .where('id', '<>', except ?? 0)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertBulkLoad(
  ex: Executor,
  accountId: number,
  v: BulkLoadValues,
  now: number,
  owner: { userId?: number | null; integrationId?: number | null } = {},
): Promise<BulkLoadRow> {
  if (await nameTaken(ex, accountId, v.name, null)) throw taken(v.name);
  // Another request may take the name between the check and the write.
  await unlessTaken(
    ex
      .insertInto('bulk_loads')
      .values({
        account_id: accountId,
        ...valuesOf(v),
        created_at: now,
        updated_at: now,
        user_id: owner.userId ?? null,
        integration_id: owner.integrationId ?? null,
      })
      .execute(),
    () => taken(v.name),
  );
  return requireBulkLoad(ex, accountId, v.name);
}

export async function updateBulkLoad(
  ex: Executor,
  row: BulkLoadRow,
  v: BulkLoadValues,
  now: number,
): Promise<BulkLoadRow> {
  if (await nameTaken(ex, row.account_id, v.name, row.id)) throw taken(v.name);
  await unlessTaken(
    ex
      .updateTable('bulk_loads')
      .set({ ...valuesOf(v), updated_at: now })
      .where('id', '=', row.id)
      .where('account_id', '=', row.account_id)
      .execute(),
    () => taken(v.name),
  );
  return requireBulkLoad(ex, row.account_id, v.name);
}

export async function deleteBulkLoad(ex: Executor, row: Pick<BulkLoadRow, 'id' | 'account_id'>): Promise<void> {
  await ex.deleteFrom('bulk_loads').where('id', '=', row.id).where('account_id', '=', row.account_id).execute();
}

/** Locks the session's row until the transaction ends, so its runs are queued one at a time across nodes. */
export async function lockBulkLoad(ex: Executor, row: Pick<BulkLoadRow, 'id' | 'account_id'>): Promise<void> {
  await one(
    ex,
    sql`SELECT id FROM bulk_loads WHERE id = ${row.id} AND account_id = ${row.account_id}${sql.raw(dialectOf(ex).forUpdate)}`,
  );
}

/** Records when the session's cron last queued a run. */
export async function markFired(ex: Executor, row: Pick<BulkLoadRow, 'id' | 'account_id'>, now: number): Promise<void> {
  await ex
    .updateTable('bulk_loads')
    .set({ last_fired_at: now })
    .where('id', '=', row.id)
    .where('account_id', '=', row.account_id)
    .execute();
}

/** Sessions with a schedule of their own (not an integration's), over every account: the scheduler's view. */
export async function scheduledBulkLoads(ex: Executor): Promise<BulkLoadRow[]> {
  return ex
    .selectFrom('bulk_loads')
    .selectAll()
    .where('cron', 'is not', null)
    .where('integration_id', 'is', null)
    .where('user_id', 'is not', null)
    .orderBy('id')
    .execute();
}

/** The bulk load jobs of these sessions (`params_json.bulk_load_id`), newest first, as `kindJobs` reads them. */
export function bulkLoadJobs(
  ex: Executor,
  accountId: number,
  sessionIds: number[],
  only: Pick<KindJobsQuery, 'statuses' | 'createdSince'> = {},
) {
  return kindJobs(ex, { accountId, type: 'bulkload', paramKey: 'bulk_load_id', values: sessionIds, ...only });
}

/**
 * What a bulk load job records in `jobs.params_json` (the contract for the runner that will execute
 * bulk loads): the session's id, the target's ids and names, the configuration it ran with and the
 * schema it wrote as `[name, type, source name]` triples.
 */
const target = z.object({ id: z.number(), name: z.string() });
const bulkLoadJobParams = z.object({
  bulk_load_id: z.number(),
  database: target.optional(),
  table: target.optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  schema: z.array(z.array(z.string())).optional(),
});
export type BulkLoadJobParams = z.infer<typeof bulkLoadJobParams>;

/** The session's queued or running job, if any: a session runs one job at a time. */
export async function inFlightJob(
  ex: Executor,
  row: Pick<BulkLoadRow, 'id' | 'account_id'>,
): Promise<{ id: number; status: string } | null> {
  const jobs = await bulkLoadJobs(ex, row.account_id, [row.id], { statuses: ['queued', 'running'] });
  const oldest = jobs.at(-1);
  return oldest ? { id: oldest.id, status: oldest.status } : null;
}

/** What a job records when it is queued, so a job that never lands still shows its target, config and schema. */
export async function queuedJobParams(
  deps: AppDeps,
  row: BulkLoadRow,
  ex: Executor = deps.storage.db,
): Promise<BulkLoadJobParams> {
  const database = await findDatabase(ex, row.account_id, row.database_name);
  const table = database ? await findTable(ex, row.account_id, database.id, row.table_name) : null;
  return {
    bulk_load_id: row.id,
    ...(database ? { database: { id: database.id, name: database.name } } : {}),
    ...(table ? { table: { id: table.id, name: table.name } } : {}),
    config: { embulk_config: wireConfig(row), config_diff: {} },
    schema: [],
  };
}

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/** The jobs of kind `bulkload` that ran for this session, newest first: only what really ran. */
export async function listBulkLoadJobs(deps: AppDeps, row: BulkLoadRow): Promise<BulkLoadJob[]> {
  const ex = deps.storage.db;
  // Not before the session was created: ids reused before migration 15 could name an older session's jobs.
  const jobs = await bulkLoadJobs(ex, row.account_id, [row.id], { createdSince: row.created_at });
  // Jobs recorded before queued jobs kept their facts: fill in what is known now.
  const parsed = jobs.map((job) => parseStored(bulkLoadJobParams, job.params_json ?? '{}', 'jobs.params_json'));
  const known = parsed.some((p) => !p.database || !p.table || !p.config) ? await queuedJobParams(deps, row) : null;
  const fallback = (): Partial<BulkLoadJobParams> => known ?? {};
  return jobs.map((job, i) => {
    const params = parsed[i] as BulkLoadJobParams;
    return {
      job_id: job.id,
      account_id: job.account_id,
      type: 'bulkload',
      status: job.status,
      records: job.num_records,
      schema: params.schema ?? [],
      database: params.database ?? fallback().database ?? { id: 0, name: row.database_name },
      table: params.table ?? fallback().table ?? { id: 0, name: row.table_name },
      config: maskConfig(params.config ?? fallback().config ?? {}) as Record<string, unknown>,
      priority: job.priority,
      cpu_time: job.cpu_time,
      created_at: seconds(job.created_at),
      updated_at: seconds(job.updated_at),
      start_at: seconds(job.start_at),
      end_at: seconds(job.end_at),
    };
  });
}
