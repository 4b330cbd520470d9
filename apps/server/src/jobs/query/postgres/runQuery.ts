import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { checkQueryText } from '../guard';
import { BIGINT_OUT_OF_RANGE, QueryFailed } from '../outcome';
import { tokenize } from '../tokens';
import { BatchSizing, decodeRows } from './fetchBatches';
import { resultNames } from './identifiers';
import { ensureReadRole, quoteIdent, readRoleName } from './readRoles';
import { resultColumn } from './resultValues';
import { refuseServiceTables } from './serviceTables';
import { translateToPostgres } from './translate';

/**
 * Runs a query job's Presto SQL on PostgreSQL: translated (translate.ts), in a READ ONLY transaction, as the
 * customer schema's read role (readRoles.ts), with `statement_timeout` and `search_path` set locally, through
 * a cursor read in batches of about `batchBytes` (fetchBatches.ts) that stops past `maxRows`. Errors read as the SQLite path's do: "Stopped: time limit of N s
 * exceeded." and "Killed on request." (QueryFailed), the abort reason when `signal` aborts, and PostgreSQL's
 * message for SQL it cannot run.
 */

export interface PostgresQueryTask {
  pool: pg.Pool;
  /** The customer database's schema. */
  schema: string;
  /** The database's name, which may qualify tables in the query. */
  database: string;
  /** The query, in the Presto dialect. */
  sql: string;
  /** The job's "now" (TD_SCHEDULED_TIME, TD_INTERVAL, now()). */
  nowMs: number;
  timeoutMs: number;
  /** Rows past this end the query with an error. */
  maxRows: number;
  /** At most this many rows per FETCH from the query's cursor (10,000 by default). */
  batchRows?: number;
  /** About this many bytes per FETCH (4 MiB by default): wide rows come a few at a time. */
  batchBytes?: number;
  /** Receives the rows batch by batch, in order; the result's `rows` then stays empty. */
  onRows?: (rows: unknown[][]) => void | Promise<void>;
  /** Each table's column types (`time` included) as the catalog records them, for typed results. */
  tableTypes?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Aborting cancels the query; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Called with the backend running the query and the tag it carries (its `application_name` while the query's
   * transaction lasts), for cancelPostgresQuery from any node.
   */
  onBackendPid?: (pid: number, tag: string) => void;
}

export interface PostgresQueryResult {
  /** `[name, presto type]` per column: the job's `hive_result_schema`. */
  schema: [string, string][];
  /** The rows, unless `onRows` took them. */
  rows: unknown[][];
  numRecords: number;
}

/**
 * The schema's read role, set up when it is missing or lacks the schema (a database dropped and made again
 * has a new schema the old grants do not reach). A failure here is the service's configuration, not the query's.
 */
async function readRole(client: pg.PoolClient, schema: string): Promise<string> {
  const role = readRoleName(schema);
  try {
    const ready = await client.query<{ ready: boolean }>(
      `SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)
                    AND EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $2)
              THEN has_schema_privilege($1, $2, 'USAGE') ELSE false END AS ready`,
      [role, schema],
    );
    if (!ready.rows[0]?.ready) await ensureReadRole(client, schema);
    return role;
  } catch (e) {
    throw new Error(
      `The query role ${role} could not be set up (the service's PostgreSQL user needs CREATEROLE): ${(e as Error).message}`,
    );
  }
}

const rawText = { getTypeParser: () => (text: string) => text } as unknown as pg.CustomTypesConfig;

/**
 * Asks PostgreSQL to cancel the statement running on backend `pid`; true when a signal was sent. With `tag`,
 * only while that backend still runs the query that reported it (a pooled connection may serve another job by
 * the time a late kill arrives).
 */
export async function cancelPostgresQuery(pool: pg.Pool, pid: number, tag?: string): Promise<boolean> {
  const r =
    tag === undefined
      ? await pool.query<{ cancelled: boolean }>('SELECT pg_cancel_backend($1) AS cancelled', [pid])
      : await pool.query<{ cancelled: boolean }>(
          'SELECT pg_cancel_backend(pid) AS cancelled FROM pg_stat_activity WHERE pid = $1 AND application_name = $2',
          [pid, tag],
        );
  return r.rows[0]?.cancelled === true;
}

/** How often a kill repeats its cancel while the query has not ended. */
const CANCEL_REPEAT_MS = 100;

const timeLimit = (task: PostgresQueryTask) =>
  new QueryFailed(`Stopped: time limit of ${Math.round(task.timeoutMs / 1000)} s exceeded.`);

function failure(e: unknown, task: PostgresQueryTask): unknown {
  const err = e as { code?: string; message?: string };
  if (err.code === '57014') {
    if (task.signal?.aborted) return task.signal.reason;
    if (/statement timeout/.test(err.message ?? '')) return timeLimit(task);
    return new QueryFailed('Killed on request.');
  }
  if (err.code === '42501') {
    return new QueryFailed(
      `Permission denied: a query reads only the tables of its own database (${err.message ?? 'no privilege'}).`,
    );
  }
  // numeric_value_out_of_range: PostgreSQL's words, with what to do, as on DuckDB.
  if (err.code === '22003' && err.message === 'bigint out of range') return new QueryFailed(BIGINT_OUT_OF_RANGE);
  if (err.code === '25006' || (err.code === '0A000' && /data-modifying/.test(err.message ?? ''))) {
    return new QueryFailed(
      'Queries may only read data: this statement writes. Load data with bulk import or the ingestion APIs.',
    );
  }
  return e;
}

/** The catalog type of each result column read straight from a table of the schema, else null. */
async function declaredTypes(
  client: pg.PoolClient,
  task: PostgresQueryTask,
  fields: pg.FieldDef[],
): Promise<(string | null)[]> {
  const tables = [...new Set(fields.map((f) => f.tableID).filter((id) => id > 0))];
  if (!task.tableTypes || tables.length === 0) return fields.map(() => null);
  const found = await client.query<{ oid: string; attnum: string; relname: string; attname: string }>(
    `SELECT c.oid, a.attnum, c.relname, a.attname FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.oid = ANY($2::oid[]) AND a.attnum > 0`,
    [task.schema, tables],
  );
  const names = new Map(found.rows.map((r) => [`${r.oid}/${r.attnum}`, [r.relname, r.attname] as const]));
  return fields.map((f) => {
    const name = names.get(`${f.tableID}/${f.columnID}`);
    return name ? (task.tableTypes?.get(name[0])?.get(name[1]) ?? null) : null;
  });
}

/** Checks and translates the query (QueryRefused when it cannot run), then runs it. */
export async function runPostgresQuery(task: PostgresQueryTask): Promise<PostgresQueryResult> {
  checkQueryText(task.sql);
  refuseServiceTables(tokenize(task.sql));
  const translated = translateToPostgres(task.sql, { database: task.database, nowMs: task.nowMs });
  return runTranslatedQuery(task, translated, resultNames(tokenize(task.sql)));
}

/**
 * Runs SQL already translated for PostgreSQL in the sandbox: the read role, a READ ONLY transaction, the
 * time limit and the search path. `task.sql` is not read. The tests run raw SQL (pg_sleep, writes) through it.
 */
export async function runTranslatedQuery(
  task: PostgresQueryTask,
  sql: string,
  names: (string | null)[] | null = null,
): Promise<PostgresQueryResult> {
  task.signal?.throwIfAborted();
  const client = await task.pool.connect();
  let broken: Error | undefined;
  const pid = (client as unknown as { processID: number }).processID;
  const tag = `svc_query_${randomUUID()}`;
  // A cancel that reaches the backend between two statements cancels nothing, and the next statement
  // (a FETCH of a long query) would run on. So a kill repeats its cancel until the query has ended.
  let recancel: ReturnType<typeof setInterval> | undefined;
  const onAbort = () => {
    const cancel = () => void cancelPostgresQuery(task.pool, pid, tag).catch(() => {});
    cancel();
    recancel = setInterval(cancel, CANCEL_REPEAT_MS);
  };
  try {
    // Its errors carry no PostgreSQL code, so failure() passes them on as they are.
    const role = await readRole(client, task.schema);
    await client.query('BEGIN READ ONLY');
    try {
      await client.query(`SET LOCAL application_name = '${tag}'`);
      task.onBackendPid?.(pid, tag);
      task.signal?.addEventListener('abort', onAbort, { once: true });
      await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(task.timeoutMs))}`);
      await client.query(`SET LOCAL search_path = ${quoteIdent(task.schema)}, svc_fn`);
      // The translator reads strings as standard SQL does (a backslash is a plain character).
      await client.query('SET LOCAL standard_conforming_strings = on');
      await client.query(`SET LOCAL ROLE ${quoteIdent(role)}`);
      task.signal?.throwIfAborted();
      await client.query(`DECLARE svc_query NO SCROLL CURSOR FOR ${sql}`);
      task.signal?.throwIfAborted();
      const deadline = performance.now() + task.timeoutMs;
      const sizing = new BatchSizing(task);
      let columns: ReturnType<typeof resultColumn>[] | null = null;
      let schema: [string, string][] = [];
      const rows: unknown[][] = [];
      let numRecords = 0;
      for (;;) {
        // The time limit covers the whole query: each fetch gets what is left of it.
        const left = Math.ceil(deadline - performance.now());
        if (left <= 0) throw timeLimit(task);
        task.signal?.throwIfAborted();
        await client.query(`SET LOCAL statement_timeout = ${left}`);
        const batch = sizing.next();
        const fetched = await client.query({
          text: `FETCH FORWARD ${batch} FROM svc_query`,
          rowMode: 'array',
          types: rawText,
        });
        if (columns === null) {
          const declared = await declaredTypes(client, task, fetched.fields);
          const found = fetched.fields.map((f, i) => resultColumn(f.dataTypeID, declared[i] ?? null));
          schema = fetched.fields.map((f, i): [string, string] => [
            (names?.length === fetched.fields.length ? names[i] : null) ?? f.name,
            (found[i] as { type: string }).type,
          ]);
          columns = found;
        }
        numRecords += fetched.rows.length;
        if (numRecords > task.maxRows) {
          throw new QueryFailed(
            `The result has more than ${task.maxRows} rows: add a LIMIT, a filter or an aggregate.`,
          );
        }
        const decoded = decodeRows(fetched.rows as (string | null)[][], columns, sizing);
        if (task.onRows) {
          if (decoded.length > 0) await task.onRows(decoded);
        } else for (const row of decoded) rows.push(row);
        if (fetched.rows.length < batch) break;
      }
      return { schema, rows, numRecords };
    } finally {
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
    }
  } catch (e) {
    throw failure(e, task);
  } finally {
    task.signal?.removeEventListener('abort', onAbort);
    clearInterval(recancel);
    client.release(broken);
  }
}
