import { appendRows, checkWritableTable, type DatabaseRow, dataTaskOptions, findDatabase } from '../data';
import type { AppDeps } from '../platform/context';
import { badRequest, unprocessable } from '../platform/errors';
import type { Executor } from '../platform/storage';
import { webhookProblem } from '../platform/webhookSender';
import { work } from '../platform/work';
import { findResult } from '../results';
import type { JobRow } from './jobStore';
import { readResultRows } from './resultRows';
import { sendResultRows, type WebhookTarget, webhookTarget } from './resultWebhook';

/**
 * Result output of query jobs (`result` / `result_url` on job issue, `td query -r`, a scheduled query's
 * `result`): when the query succeeds, its rows go
 * - to a table of the account, given as `td://@/<database>/<table>` (any key before the `@` is ignored: rows
 *   stay in the caller's account). `?mode=append` (the default) adds the rows; `?mode=replace` swaps the
 *   table's rows for them in one transaction. Missing tables are created; a row without an integer `time`
 *   column gets the job's scheduled time;
 * - or to a webhook, `https://…` (`http://` where the address policy allows it), posted as JSON batches
 *   (resultWebhook.ts);
 * - either given directly or as the name of a result connection holding such a URL.
 */

export type OutputMode = 'append' | 'replace';

export interface TableTarget {
  kind: 'table';
  database: string;
  table: string;
  mode: OutputMode;
}

const MODES: readonly string[] = ['append', 'replace'];

const TABLE_URL = /^td:\/\/[^/?#]*\/([^/?#]+)\/([^/?#]+)\/?(?:\?([^#]*))?$/i;
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const INSTEAD = 'use td://@/<database>/<table>, an https:// webhook, or the name of a result connection holding one';
/** Rows a job may write to a table at once (as msgpack), so one job never holds a worker's memory. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

function tableUrl(url: string): TableTarget | null {
  const m = TABLE_URL.exec(url.trim());
  if (!m) return null;
  const mode = new URLSearchParams(m[3] ?? '').get('mode') ?? 'append';
  if (!MODES.includes(mode)) {
    throw unprocessable(
      `"result": mode=${mode.slice(0, 20)} is not offered; use mode=append (the default) or mode=replace.`,
    );
  }
  return {
    kind: 'table',
    database: decodeURIComponent(m[1] as string),
    table: decodeURIComponent(m[2] as string),
    mode: mode as OutputMode,
  };
}

type ResultTarget = TableTarget | WebhookTarget;

/** The table or webhook a `result` names, or a 400/422 saying what to send instead. */
async function resultTarget(ex: Executor, accountId: number, result: string): Promise<ResultTarget> {
  const given = result.trim();
  const scheme = SCHEME.exec(given)?.[1];
  if (scheme !== undefined) {
    const target = tableUrl(given) ?? webhookTarget(given, null);
    if (target) return target;
    if (scheme.toLowerCase() === 'td') throw badRequest(`"result": write a table as td://@/<database>/<table>.`);
    throw unprocessable(`"result": output to ${scheme.slice(0, 20)}:// is not offered by this server; ${INSTEAD}.`);
  }
  const connection = await findResult(ex, accountId, given);
  if (!connection) {
    throw badRequest(`"result": there is no result connection named "${given.slice(0, 100)}"; ${INSTEAD}.`);
  }
  const target = tableUrl(connection.url) ?? webhookTarget(connection.url, connection.name);
  if (!target) {
    throw unprocessable(
      `"result": the result connection "${connection.name}" writes neither a table nor a webhook; ${INSTEAD}.`,
    );
  }
  return target;
}

/**
 * Checks a `result` before a job or schedule that writes it is accepted: the target's form; for a table, its
 * database in the account and a table name that exists or can be created; for a webhook, the address policy
 * (a name that does not resolve yet may pass: it is checked again when the rows are sent). A 4xx naming what
 * to fix; nothing is written.
 */
export async function checkResultTarget(deps: AppDeps, accountId: number, result: string): Promise<void> {
  const ex = deps.storage.db;
  const target = await resultTarget(ex, accountId, result);
  if (target.kind === 'webhook') {
    const problem = await webhookProblem(target.url, deps.config.outbound, 'save');
    if (problem) throw badRequest(`"result": ${target.name}: ${problem}`);
    return;
  }
  const database = await findDatabase(ex, accountId, target.database);
  if (!database) {
    throw badRequest(
      `"result": the database "${target.database.slice(0, 100)}" does not exist in this account; create it first or name another.`,
    );
  }
  try {
    await checkWritableTable(ex, database, target.table);
  } catch (err) {
    throw badRequest(`"result": ${err instanceof Error ? err.message : String(err)}`);
  }
}

export interface OutputArgs {
  database: DatabaseRow;
  table: string;
  /** The job's msgpack result: concatenated arrays, one per row. */
  file: string;
  columns: string[];
  /** `time` of rows that have none (Unix seconds). */
  defaultTime: number;
  mode: OutputMode;
}

/** Appends a result's rows to the table, or replaces its rows, in one transaction (a task in the database's lane). */
export async function appendResultRows(deps: AppDeps, a: OutputArgs): Promise<{ inserted: number }> {
  const records = readResultRows(a.file, a.columns);
  for (const record of records) {
    if (record.time === null || record.time === undefined) record.time = a.defaultTime;
  }
  if (records.length === 0 && a.mode === 'append') return { inserted: 0 };
  return appendRows(deps, a.database, a.table, records, { createTable: true, replace: a.mode === 'replace' });
}

/** Writes a successful job's rows to its result table or webhook; throws a sentence for the job's stderr. */
export async function writeResult(
  deps: AppDeps,
  job: JobRow,
  result: { file: string; columns: string[]; bytes: number },
  signal?: AbortSignal,
): Promise<string> {
  const target = await resultTarget(deps.storage.db, job.account_id, job.result_url ?? '');
  if (target.kind === 'webhook') return sendResultRows(deps, job, target, result, signal);
  const name = `${target.database}.${target.table}`;
  const database = await findDatabase(deps.storage.db, job.account_id, target.database);
  if (!database) throw new Error(`The result database "${target.database}" does not exist: create it.`);
  if (result.bytes > MAX_OUTPUT_BYTES) {
    throw new Error(
      `The result is ${result.bytes} bytes, more than the ${MAX_OUTPUT_BYTES} a job may write to ${name}.`,
    );
  }
  const args: OutputArgs = {
    database,
    table: target.table,
    file: result.file,
    columns: result.columns,
    defaultTime: Math.floor((job.scheduled_at ?? job.created_at) / 1000),
    mode: target.mode,
  };
  try {
    const { inserted } = await work(deps).run('jobs.result-to-table', args, dataTaskOptions(deps, database));
    return target.mode === 'replace'
      ? `${name} replaced by the ${inserted} rows of the result\n`
      : `${inserted} rows appended to ${name}\n`;
  } catch (err) {
    throw new Error(`Writing the result to ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
