import type { DuckDBConnection } from '@duckdb/node-api';
import { readMetaSchema } from '../../../data';
import { checkSandboxed } from '../../../platform/duckSettings';
import { checkQueryText } from '../guard';
import { hiveToPresto } from '../hive';
import type { QueryOutcome } from '../outcome';
import { QueryFailed } from '../outcome';
import { resultNames } from '../postgres/identifiers';
import { ResultWriter } from '../resultWriter';
import { tokenize } from '../tokens';
import { isDuckMessage, readableDuckError } from './errors';
import { registerDuckFunctions } from './functions';
import { resultColumn } from './resultValues';
import { inspectDuckQuery, type QueryShape, refuseDuckStatement } from './sandbox';
import { translateToDuckDB } from './translate';

/**
 * Runs a query job on a DuckDB connection that its database file's owner gives (the engine never opens files):
 * checked (guard.ts, sandbox.ts), translated (translate.ts), streamed chunk by chunk into today's result files
 * (resultWriter.ts: msgpack, then gzip) with the byte cap applied while the rows arrive. The time limit and a
 * kill interrupt the connection (`connection.interrupt()`); errors read as on SQLite: "Stopped: time limit of
 * N s exceeded.", the abort reason on a kill, and DuckDB's message for SQL it cannot run as errors.ts words it.
 */

export interface DuckQueryTask {
  /** The job's query as its user wrote it. */
  query: string;
  type: 'presto' | 'hive';
  /** The job's database name, which may qualify tables. */
  database: string;
  msgpackPath: string;
  gzipPath: string;
  /** The job's "now" (TD_SCHEDULED_TIME, TD_INTERVAL, now()). */
  nowMs: number;
  maxResultBytes: number;
  timeLimitSeconds: number;
  /** The query job's memory limit, for the message when it is reached (the instance holds the limit). */
  memoryLimitBytes?: number;
  /** Aborting interrupts the query; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Checks a query's text and translates it (QueryRefused when it cannot run). */
export function prepareDuckQuery(query: string, type: 'presto' | 'hive', database: string, nowMs: number): string {
  return translateToDuckDB(checkDuckQueryText(query, type), { database, nowMs });
}

/**
 * The checks of a query's text that refuse it when it is issued, on every engine (one read-only statement) and
 * DuckDB's own statements; returns its Presto text. What only translating or running finds is the job's error.
 */
export function checkDuckQueryText(query: string, type: 'presto' | 'hive'): string {
  const presto = type === 'hive' ? hiveToPresto(query) : query;
  const first = tokenize(presto).find((t) => t.kind === 'word');
  if (first) refuseDuckStatement(first.text);
  checkQueryText(presto);
  return presto;
}

/** Each table's column types (`time` included) as the figures table records them. */
async function tableTypes(connection: DuckDBConnection): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  try {
    const reader = await connection.runAndReadAll('SELECT name, schema_json FROM "_svc$tables"');
    for (const [name, json] of reader.getRows() as [string, string][]) {
      const columns = new Map([['time', 'long']]);
      for (const [column, type] of readMetaSchema(json)) columns.set(column, type);
      out.set(name.toLowerCase(), columns);
    }
  } catch {
    // A file without the figures table has no typed columns.
  }
  return out;
}

/** The catalog type of each result column read straight from a table, else null. */
function declaredTypes(names: string[], shape: QueryShape, types: Map<string, Map<string, string>>) {
  return names.map((name, i) => {
    const column = shape.star ? name : shape.columns[i];
    if (!column) return null;
    const found = shape.tables.map((t) => types.get(t)?.get(column.toLowerCase())).filter((t) => t !== undefined);
    return found.length > 0 && found.every((t) => t === found[0]) ? (found[0] as string) : null;
  });
}

function failure(e: unknown, task: DuckQueryTask, timedOut: boolean): unknown {
  if (task.signal?.aborted) return task.signal.reason;
  if (timedOut) return new QueryFailed(`Stopped: time limit of ${task.timeLimitSeconds} s exceeded.`);
  const message = (e as Error).message ?? '';
  if (!isDuckMessage(message)) return e;
  if (/^Out of Memory Error/i.test(message) && task.memoryLimitBytes) {
    const mib = Math.round(task.memoryLimitBytes / 1048576);
    return new QueryFailed(
      `The query needs more than the ${mib} MiB of memory a query job may use: filter, aggregate or add a LIMIT. (${readableDuckError(message)})`,
    );
  }
  return new QueryFailed(readableDuckError(message));
}

/** Runs a query job's query on `connection` and writes its result files. */
export async function runDuckQuery(connection: DuckDBConnection, task: DuckQueryTask): Promise<QueryOutcome> {
  task.signal?.throwIfAborted();
  const presto = checkDuckQueryText(task.query, task.type);
  const sql = translateToDuckDB(presto, { database: task.database, nowMs: task.nowMs });
  // An expression's column is named by its text, as on the other engines (DuckDB names `COUNT(*)` count_star()).
  const written = resultNames(tokenize(presto));
  await checkSandboxed(connection);
  registerDuckFunctions(connection);
  const shape = await inspectDuckQuery(connection, sql);
  const types = await tableTypes(connection);
  let timedOut = false;
  // An interrupt that comes while the query is still being started (the stream call has not reached the engine)
  // is lost, and the query would run on unseen: once asked to stop, it is interrupted again every 50 ms until
  // it has.
  let again: ReturnType<typeof setInterval> | undefined;
  const interrupt = () => {
    connection.interrupt();
    again ??= setInterval(() => connection.interrupt(), 50);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    interrupt();
  }, task.timeLimitSeconds * 1000);
  task.signal?.addEventListener('abort', interrupt, { once: true });
  const writer = new ResultWriter(task.msgpackPath, task.maxResultBytes);
  try {
    // An abort before the listener was in place would otherwise go unheard.
    task.signal?.throwIfAborted();
    const result = await connection.stream(sql);
    const names = result
      .columnNames()
      .map((name, i, all) => (written?.length === all.length ? written[i] : null) ?? name);
    const declared = declaredTypes(names, shape, types);
    const columns = result.columnTypes().map((type, i) => resultColumn(type, declared[i] ?? null));
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      if (timedOut || task.signal?.aborted) throw new Error('interrupted');
      const vectors = columns.map((_, k) => chunk.getColumnVector(k));
      for (let row = 0; row < chunk.rowCount; row++) {
        // The byte cap stops the query here, at the first row past it: the rest is never fetched.
        writer.write(vectors.map((vector, k) => (columns[k] as (typeof columns)[number]).convert(vector.getItem(row))));
      }
    }
    clearTimeout(timer);
    const gzipBytes = await writer.finish(task.gzipPath);
    const schema = names.map((name, i): [string, string] => [name, (columns[i] as { type: string }).type]);
    return { schema, numRecords: writer.rows, bytes: writer.bytes, gzipBytes };
  } catch (e) {
    // A query stopped by the byte cap may still be running on DuckDB's threads.
    interrupt();
    throw failure(e, task, timedOut);
  } finally {
    clearTimeout(timer);
    clearInterval(again);
    task.signal?.removeEventListener('abort', interrupt);
    writer.close();
  }
}
