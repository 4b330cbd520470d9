import { appendRowsInWorker, findDatabase } from '../data';
import type { WebhookSettings } from '../journeys';
import type { AppDeps } from '../platform/context';
import { csvQuote } from '../platform/csv';
import { toWebhook } from './webhook';

/**
 * Where an activation's rows go, by the URL of its result connection:
 * - `td://[key]@/<database>/<table>`: appended to that table of one of the account's databases;
 * - `https://…` (or `http://` where private addresses are allowed; platform/addressPolicy.ts): a webhook
 *   (webhook.ts), with the activation's method, headers and body template;
 * - `csv://<any name>`: kept as a CSV file to download from the delivery.
 */

const TABLE_URL = /^td:\/\/[^/]*\/([^/?#]+)\/([^/?#]+)\/?$/i;

export interface Outcome {
  target: string;
  /** Set when the delivery failed: a sentence for the delivery record (never the remote body). */
  error: string | null;
  /** Webhooks: the HTTP status code of the last answer (of the failing batch when one failed). */
  responseCode?: number;
  /** Test sends: the start of the webhook's answer. */
  responseExcerpt?: string;
  /** CSV deliveries: the file. */
  file?: { contentType: string; body: string };
}

export interface DeliveryEnv {
  deps: AppDeps;
  accountId: number;
  journeyId: string;
  activationId: string;
  at: number;
  /** Keep the start of the webhook's answer (test sends). */
  keepExcerpt?: boolean;
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

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return csvQuote(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

function toCsv(rows: Record<string, unknown>[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Sends the rows to the connection's URL; `webhook` settings apply to webhooks only. */
export async function send(
  env: DeliveryEnv,
  url: string,
  rows: Record<string, unknown>[],
  webhook?: WebhookSettings,
): Promise<Outcome> {
  const table = await toTable(env, url, rows);
  if (table) return table;
  if (/^https?:\/\//i.test(url)) return toWebhook(env, url, rows, webhook);
  if (/^csv:\/\//i.test(url)) {
    return { target: 'CSV download', error: null, file: { contentType: 'text/csv; charset=utf-8', body: toCsv(rows) } };
  }
  const scheme = url.split(':')[0] ?? '';
  return {
    target: scheme,
    error: `Deliveries to "${scheme}" connections are not available; use td://@/<database>/<table>, an https:// webhook or csv://.`,
  };
}
