import { type BulkLoadConfig, bulkLoadConfig, DATA_NAME } from '@svc/contracts';
import { requireDatabase, requireTable } from '../data';
import type { IssueRequest, JobRow, JobRunner } from '../jobs';
import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { describeIssues } from '../platform/params';
import { checkFilters, checkSourceOptions, maskConfig } from './config';
import { type OneOffRun, readFilters, targetName, timeSource } from './run';
import { sealCredentials } from './secrets';
import { type BulkLoadSource, SourceError } from './source';

/**
 * Bulk loads without a session, as `td connector:guess|preview|issue` and the clients' bulk_load_guess,
 * bulk_load_preview and bulk_load_issue use them: the body is `{"config": {in, out, exec, filters}}` (or the
 * config itself). The same source kinds, checks and runner as sessions (run.ts).
 */

/** Rows a preview shows. */
export const PREVIEW_ROWS = 20;

type Sources = ReadonlyMap<string, BulkLoadSource>;

/** The config of a request body, normalised as the CLI does (`ConnectorConfigNormalizer`): in, out, exec, filters. */
function requestConfig(body: Record<string, unknown>): Record<string, unknown> {
  if (body.in !== undefined) {
    return { in: body.in, out: body.out ?? {}, exec: body.exec ?? {}, filters: body.filters ?? [] };
  }
  if (body.config && typeof body.config === 'object' && !Array.isArray(body.config)) {
    return requestConfig(body.config as Record<string, unknown>);
  }
  throw badRequest('Send {"config": {"in": {"type": "postgresql", …}, "out": {…}}}: the body has no "config".');
}

/** The config checked as a session's is (config.ts), and the source that reads its `in`. */
function checked(raw: Record<string, unknown>, sources: Sources): { config: BulkLoadConfig; source: BulkLoadSource } {
  const parsed = bulkLoadConfig.safeParse(raw);
  if (!parsed.success) throw badRequest(describeIssues(parsed.error).replace(/^"/, '"config.'));
  checkSourceOptions(parsed.data.in, 'config.in');
  checkFilters(parsed.data.filters, 'config.filters');
  const source = sources.get(parsed.data.in.type);
  if (!source) {
    throw badRequest(
      `"config.in.type" "${parsed.data.in.type.slice(0, 60)}" is not a source this server reads; supported: ${[...sources.keys()].join(', ')}.`,
    );
  }
  return { config: parsed.data, source };
}

/** A source failure a person can fix (wrong password, missing table) is a 400 naming it. */
async function asRequestError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof SourceError) throw badRequest(err.message);
    throw err;
  }
}

/** `POST /v3/bulk_loads/guess`: the config completed with the columns, time column and renames the source sees. */
export async function guessConfig(sources: Sources, accountId: number, body: Record<string, unknown>) {
  const { config, source } = checked(requestConfig(body), sources);
  if (!source.guess) throw badRequest(`Sources of type "${config.in.type}" cannot be guessed here.`);
  const guess = source.guess;
  const g = await asRequestError(() => guess({ accountId, input: config.in }));
  const given = (config.filters ?? []).filter((f) => f.type !== 'rename' && f.type !== 'add_time');
  const filters: Record<string, unknown>[] = [];
  if (Object.keys(g.renames).length > 0) filters.push({ type: 'rename', columns: g.renames });
  const out = { mode: 'append', ...(config.out ?? {}) } as Record<string, unknown>;
  if (g.timeColumn && out.time_column === undefined) out.time_column = g.renames[g.timeColumn] ?? g.timeColumn;
  if (out.time_column === undefined) {
    filters.push({ type: 'add_time', to_column: { name: 'time' }, from_value: { mode: 'upload_time' } });
  }
  return { config: { in: g.input, out, exec: config.exec ?? {}, filters: [...filters, ...given] } };
}

/** JSON has no big integers: a value beyond 2^53 is shown as its digits. */
const jsonValue = (v: unknown) => (typeof v === 'bigint' ? v.toString() : v);

/**
 * `POST /v3/bulk_loads/preview`: the first rows the config would load, as they would land: the columns
 * (renamed) and `time` (from the time column, else the upload time), `{schema: [{index, name, type}], records}`.
 */
export async function previewConfig(deps: AppDeps, sources: Sources, accountId: number, body: Record<string, unknown>) {
  const { config, source } = checked(requestConfig(body), sources);
  const filters = readFilters(config);
  const timeColumn = timeSource(config, filters, { time_column: null });
  const input = { ...config.in, fetch_rows: 100 };
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  return asRequestError(async () => {
    const stream = await source.open({
      accountId,
      input,
      state: undefined,
      timeColumn,
      signal: AbortSignal.timeout(60_000),
    });
    try {
      const rows: unknown[][] = [];
      for await (const batch of stream.batches()) {
        rows.push(...batch.slice(0, PREVIEW_ROWS - rows.length));
        if (rows.length >= PREVIEW_ROWS) break;
      }
      const n = stream.columns.length;
      const schema = [
        ...stream.columns.map((c, index) => ({ index, name: targetName(c.name, filters), type: c.type })),
        { index: n, name: 'time', type: 'long' },
      ];
      const records = rows.map((row) => [
        ...row.slice(0, n).map(jsonValue),
        timeColumn && row[n] !== null && row[n] !== undefined ? Number(row[n]) : now,
      ]);
      return { schema, records };
    } finally {
      await stream.close().catch(() => {});
    }
  });
}

/**
 * `POST /v3/job/issue/bulkload/:db` (`td connector:issue`): a `bulkload` job that reads the config once
 * into `database.table` (which must exist: `--auto-create-table` creates it first). Its credentials are
 * sealed in the job until it ends (run.ts).
 */
export async function issueOneOff(
  deps: AppDeps,
  jobs: JobRunner,
  sources: Sources,
  req: IssueRequest,
): Promise<JobRow> {
  const { config } = checked(requestConfig(req.params), sources);
  const tableName = req.params.table;
  if (typeof tableName !== 'string' || !DATA_NAME.test(tableName)) {
    throw badRequest('Send "table": the table to load into (3 to 255 lowercase letters, digits or underscores).');
  }
  const database = await requireDatabase(deps.storage.db, req.accountId, req.database);
  // A missing table is the contract's 404 (`td connector:issue --auto-create-table` creates it first).
  const table = await requireTable(deps.storage.db, req.accountId, database.id, tableName);
  const out = (config.out ?? {}) as Record<string, unknown>;
  const oneoff: OneOffRun = {
    config_json: JSON.stringify(sealCredentials(deps.config.secret, config)),
    database_name: database.name,
    table_name: table.name,
    time_column: typeof out.time_column === 'string' ? out.time_column : null,
  };
  return jobs.enqueue({
    accountId: req.accountId,
    userId: req.userId,
    type: 'bulkload',
    database: database.name,
    query: null,
    priority: 0,
    params: {
      oneoff,
      database: { id: database.id, name: database.name },
      table: { id: table.id, name: table.name },
      config: { embulk_config: maskConfig(config), config_diff: {} },
      schema: [],
    },
  });
}
