import { findDatabase } from '../data/catalog';
import { appendRowsInWorker } from '../data/fileWrites';
import type { AppDeps } from '../platform/context';
import { csvQuote } from '../platform/csv';
import { outboundProblem } from './outbound';

/**
 * Where an activation's rows go, by the URL of its result connection:
 * - `td://[key]@/<database>/<table>`: appended to that table of one of the account's databases;
 * - `https://…` (or `http://` where private addresses are allowed; platform/addressPolicy.ts): POSTed as JSON batches
 *   `{journeyId, activationId, deliveredAt, profiles: [...]}` of up to WEBHOOK_BATCH profiles;
 * - `csv://<any name>`: kept as a CSV file to download from the delivery.
 */

export const WEBHOOK_BATCH = 500;
const WEBHOOK_TIMEOUT_MS = 10_000;
const TABLE_URL = /^td:\/\/[^/]*\/([^/?#]+)\/([^/?#]+)\/?$/i;

export interface Outcome {
  target: string;
  /** Set when the delivery failed: a sentence for the delivery record (never the remote body). */
  error: string | null;
  /** Webhooks: the HTTP status code of the last answer (of the failing batch when one failed). */
  responseCode?: number;
  /** CSV deliveries: the file. */
  file?: { contentType: string; body: string };
}

export interface DeliveryEnv {
  deps: AppDeps;
  accountId: number;
  journeyId: string;
  activationId: string;
  at: number;
}

async function toTable(env: DeliveryEnv, url: string, rows: Record<string, unknown>[]): Promise<Outcome | null> {
  const m = TABLE_URL.exec(url);
  if (!m) return null;
  const [database, table] = [decodeURIComponent(m[1] ?? ''), decodeURIComponent(m[2] ?? '')];
  const target = `${database}.${table}`;
  const row = await findDatabase(env.deps.storage.db, env.accountId, database);
  if (!row) return { target, error: `The database "${database}" does not exist in this account; create it.` };
  try {
    await appendRowsInWorker(env.deps, row, table, rows, { createTable: true });
    return { target, error: null };
  } catch (err) {
    return { target, error: err instanceof Error ? err.message : String(err) };
  }
}

async function toWebhook(env: DeliveryEnv, url: string, rows: Record<string, unknown>[]): Promise<Outcome> {
  const target = new URL(url).origin;
  const problem = await outboundProblem(url, env.deps.config.outbound);
  if (problem) return { target, error: problem };
  let responseCode: number | undefined;
  for (let i = 0; i < rows.length; i += WEBHOOK_BATCH) {
    const body = JSON.stringify({
      journeyId: env.journeyId,
      activationId: env.activationId,
      deliveredAt: new Date(env.at).toISOString(),
      profiles: rows.slice(i, i + WEBHOOK_BATCH),
    });
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await res.body?.cancel();
      responseCode = res.status;
      if (res.status < 200 || res.status > 299) {
        return {
          target,
          responseCode,
          error: `The webhook answered HTTP ${res.status} to batch ${i / WEBHOOK_BATCH + 1}.`,
        };
      }
    } catch (err) {
      const why =
        err instanceof Error && err.name === 'TimeoutError' ? 'did not answer in time' : 'could not be reached';
      return { target, error: `The webhook ${why} (batch ${i / WEBHOOK_BATCH + 1}).` };
    }
  }
  return responseCode === undefined ? { target, error: null } : { target, error: null, responseCode };
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return csvQuote(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

export function toCsv(rows: Record<string, unknown>[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Sends the rows to the connection's URL. */
export async function send(env: DeliveryEnv, url: string, rows: Record<string, unknown>[]): Promise<Outcome> {
  const table = await toTable(env, url, rows);
  if (table) return table;
  if (/^https?:\/\//i.test(url)) return toWebhook(env, url, rows);
  if (/^csv:\/\//i.test(url)) {
    return { target: 'CSV download', error: null, file: { contentType: 'text/csv; charset=utf-8', body: toCsv(rows) } };
  }
  const scheme = url.split(':')[0] ?? '';
  return {
    target: scheme,
    error: `Deliveries to "${scheme}" connections are not available; use td://@/<database>/<table>, an https:// webhook or csv://.`,
  };
}
