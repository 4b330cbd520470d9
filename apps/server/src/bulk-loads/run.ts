import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { columnNameForKey, findTable, requireDatabase, type SchemaEntry } from '../data';
import { type JobKind, type JobOutcome, type JobRow, setJobParams } from '../jobs';
import type { AppDeps } from '../platform/context';
import { ApiError } from '../platform/errors';
import { makeDir } from '../platform/fileModes';
import { transaction } from '../platform/storage';
import { parseStored } from '../platform/storedJson';
import { isoSeconds } from '../platform/time';
import { maskConfig, readConfig } from './config';
import { landedState, landInWorker } from './land';
import { openCredentials } from './secrets';
import { type BulkLoadSource, SourceError } from './source';
import { StageWriter } from './staging';
import { type BulkLoadJobParams, type BulkLoadRow, bulkLoadById, summariseDiffIn, wireConfig } from './store';

/**
 * The `bulkload` job kind: reads the session's source into a staging file (one batch in memory at a
 * time), then lands every row and the new incremental state in one transaction of the target's file.
 * Anything that fails before or during landing leaves the target exactly as it was.
 */

export interface Filters {
  rename: Map<string, string>;
}

export function readFilters(config: Record<string, unknown>): Filters {
  const rename = new Map<string, string>();
  const filters = Array.isArray(config.filters) ? (config.filters as Record<string, unknown>[]) : [];
  for (const f of filters) {
    if (f?.type === 'rename' && f.columns && typeof f.columns === 'object') {
      for (const [from, to] of Object.entries(f.columns as Record<string, unknown>)) {
        if (typeof to === 'string') rename.set(from, to);
      }
    }
  }
  return { rename };
}

export function targetName(source: string, filters: Filters): string {
  return filters.rename.get(source) ?? columnNameForKey(source);
}

/** The source column behind `out.time_column` (a target name), or null for the upload time. */
export function timeSource(
  config: Record<string, unknown>,
  filters: Filters,
  row: Pick<BulkLoadRow, 'time_column'>,
): string | null {
  const out = (config.out ?? {}) as Record<string, unknown>;
  const wanted = (typeof out.time_column === 'string' ? out.time_column : null) ?? row.time_column;
  if (!wanted) return null;
  for (const [from, to] of filters.rename) if (to === wanted) return from;
  return wanted;
}

/** `config.out.mode`: replace, merge (with `merge_keys`, target column names) or append. */
function outputMode(config: Record<string, unknown>): { mode: 'append' | 'replace' | 'merge'; mergeKeys: string[] } {
  const out = (config.out ?? {}) as { mode?: unknown; merge_keys?: unknown };
  if (out.mode === 'replace') return { mode: 'replace', mergeKeys: [] };
  if (out.mode !== 'merge') return { mode: 'append', mergeKeys: [] };
  const keys = Array.isArray(out.merge_keys) ? out.merge_keys.filter((k): k is string => typeof k === 'string') : [];
  if (keys.length === 0) throw new SourceError('Merge mode needs "out.merge_keys": the columns that identify a row.');
  return { mode: 'merge', mergeKeys: keys };
}

export interface BulkLoadKindOptions {
  sources: Map<string, BulkLoadSource>;
}

/**
 * A one-off job's own settings (`POST /v3/job/issue/bulkload/:db`, adhoc.ts): its config with credentials
 * sealed, kept in the job's params only until the job ends.
 */
const oneOffRun = z.object({
  config_json: z.string(),
  database_name: z.string(),
  table_name: z.string(),
  time_column: z.string().nullable(),
});
export type OneOffRun = z.infer<typeof oneOffRun>;

/** What a `bulkload` job's `jobs.params_json` says it runs: a session's id, or a one-off's settings. */
const runParams = z.looseObject({ bulk_load_id: z.number().optional(), oneoff: oneOffRun.optional() });
const runParamsOf = (job: JobRow) => parseStored(runParams, job.params_json ?? '{}', 'jobs.params_json');

/** What a run reads and where it lands: a session's settings, or a one-off job's (then `session` is null). */
type RunTarget = OneOffRun & { session: BulkLoadRow | null };

async function runTarget(deps: AppDeps, job: JobRow): Promise<RunTarget> {
  const params = runParamsOf(job);
  if (params.oneoff) return { ...params.oneoff, session: null };
  const row = await bulkLoadById(deps.storage.db, job.account_id, Number(params.bulk_load_id));
  if (!row) throw new Error('The bulk load session of this job was deleted.');
  return { ...row, session: row };
}

async function runOne(deps: AppDeps, job: JobRow, signal: AbortSignal, options: BulkLoadKindOptions) {
  const row = await runTarget(deps, job);
  const config = readConfig(row.config_json, row.session ? 'bulk_loads.config_json' : 'jobs.params_json');
  const input = openCredentials(deps.config.secret, (config.in ?? {}) as Record<string, unknown>);
  const source = options.sources.get(String(input.type));
  if (!source) {
    throw new SourceError(
      `Bulk loads cannot read sources of type "${String(input.type)}" here; supported: ${[...options.sources.keys()].join(', ')}.`,
    );
  }
  const database = await requireDatabase(deps.storage.db, job.account_id, row.database_name);
  const table = await findTable(deps.storage.db, job.account_id, database.id, row.table_name);
  if (!table) throw new SourceError(`The target table "${row.database_name}.${row.table_name}" does not exist.`);
  const filters = readFilters(config);
  const { mode, mergeKeys } = outputMode(config);
  const session = row.session;
  const stored = readConfig(session?.config_diff_json ?? '{}', 'bulk_loads.config_diff_json');
  const landed = session ? await landedState(deps, database, session) : null;
  // A re-sync from scratch reads every row and replaces the table, whatever the mode.
  const resync = session !== null && session.resync_requested_at !== null;
  // Replace reads every row each time; append and merge continue from the last landed state (one-off jobs
  // keep none).
  const state = mode === 'replace' || resync || !session ? undefined : (landed?.state ?? stored.in) || undefined;
  const timeColumn = timeSource(config, filters, row);
  const uploadTime = Math.floor(deps.clock.now().getTime() / 1000);

  const dir = join(deps.config.dataDir, 'bulk-loads');
  makeDir(dir);
  const stagePath = join(dir, `job-${job.id}.stage`);
  const stream = await source.open({
    accountId: job.account_id,
    input,
    state,
    timeColumn,
    signal,
    orderByIncremental: mode === 'merge',
  });
  const writer = new StageWriter(stagePath);
  try {
    for await (const batch of stream.batches()) {
      if (signal.aborted) throw signal.reason;
      writer.write(batch);
    }
    writer.close();
    const nextState = stream.nextState();
    const schema: SchemaEntry[] = stream.columns.map((c) => [targetName(c.name, filters), c.type, c.name]);
    const names = new Set<string>();
    for (const [name] of schema) {
      if (name === 'time' || names.has(name)) {
        throw new SourceError(`Two source columns, or a column and "time", land as "${name}": add a rename filter.`);
      }
      names.add(name);
    }
    const missingKey = mergeKeys.find((k) => !names.has(k));
    if (missingKey) {
      throw new SourceError(`The key column "${missingKey}" of merge mode is not one of the loaded columns.`);
    }
    if (signal.aborted) throw signal.reason;
    const { inserted, replaced } = await landInWorker(deps, {
      database,
      table,
      mode,
      mergeKeys,
      resync,
      schema: schema.map(([n, t]) => [n, t]),
      hasTime: timeColumn !== null,
      uploadTime,
      stagePath,
      bulkLoadId: session?.id ?? null,
      sessionCreatedAt: session?.created_at ?? null,
      jobId: job.id,
      nextState,
      basedOnJobId: landed?.jobId ?? null,
    });
    return { row, config, database, table, schema, inserted, replaced, nextState, uploadTime };
  } finally {
    await stream.close().catch(() => {});
    writer.close();
    rmSync(stagePath, { force: true });
  }
}

/** Records what the job ran with and wrote: the spec's job `config`, `schema` triples, and the session's diff. */
async function record(deps: AppDeps, job: JobRow, r: Awaited<ReturnType<typeof runOne>>): Promise<void> {
  const now = deps.clock.now();
  const startTime = isoSeconds(now);
  const configDiff = {
    in: summariseDiffIn(r.nextState, startTime),
    exec: { transaction_time: now.toISOString(), transaction_time_zone: 'UTC' },
    out: { unique_transaction_name: `svc_bulkload_${job.id}`, encrypt_start_at: r.uploadTime },
  };
  // The job keeps the masked config only: its record is for reading, never for running.
  const session = r.row.session;
  const params: Omit<BulkLoadJobParams, 'bulk_load_id'> & { bulk_load_id?: number } = {
    ...(session ? { bulk_load_id: session.id } : {}),
    database: { id: r.database.id, name: r.database.name },
    table: { id: r.table.id, name: r.table.name },
    config: { embulk_config: session ? wireConfig(session) : maskConfig(r.config), config_diff: configDiff },
    schema: r.schema,
  };
  const diff = JSON.stringify({ in: { ...r.nextState, start_time: startTime } });
  await transaction(deps.storage, async (tx) => {
    await setJobParams(tx, job, params);
    if (!session) return;
    await tx
      .updateTable('bulk_loads')
      .set({ config_diff_json: diff, updated_at: now.getTime() })
      .where('id', '=', session.id)
      .where('account_id', '=', session.account_id)
      .execute();
    // The re-sync this run did is done; one asked for while it ran stays for the next run.
    if (session.resync_requested_at !== null) {
      await tx
        .updateTable('bulk_loads')
        .set({ resync_requested_at: null })
        .where('id', '=', session.id)
        .where('account_id', '=', session.account_id)
        .where('resync_requested_at', '=', session.resync_requested_at)
        .execute();
    }
  });
}

/** A one-off job that did not land forgets its sealed credentials; its record keeps the masked config. */
async function forgetOneOff(deps: AppDeps, job: JobRow): Promise<void> {
  const params = runParamsOf(job);
  if (!params.oneoff) return;
  const { oneoff, ...rest } = params;
  await setJobParams(deps.storage.db, job, rest);
}

export function bulkLoadJobKind(deps: AppDeps, options: BulkLoadKindOptions): JobKind {
  return {
    types: ['bulkload'],
    onFailed: (job) => forgetOneOff(deps, job),
    async run(job, ctx): Promise<JobOutcome> {
      const started = process.cpuUsage();
      try {
        const result = await runOne(deps, job, ctx.signal, options);
        await record(deps, job, result);
        const replaced = result.replaced > 0 ? ` (${result.replaced} older rows of their keys replaced)` : '';
        ctx.log(`loaded ${result.inserted} rows into ${result.database.name}.${result.table.name}${replaced}`);
        const cpu = process.cpuUsage(started);
        return {
          numRecords: result.inserted,
          hiveResultSchema: JSON.stringify(result.schema.map(([n, t]) => [n, t])),
          cpuTime: Math.round((cpu.user + cpu.system) / 1000),
        };
      } catch (err) {
        if (err instanceof ApiError) throw new Error(err.message);
        throw err;
      }
    },
  };
}
