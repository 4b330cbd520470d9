import type { AppDeps } from '../platform/context';
import { sendToWebhook, type WebhookBody, webhookOrigin } from '../platform/webhookSender';
import type { JobRow } from './jobStore';
import { readResultRows } from './resultRows';

/**
 * A query job's result sent to a webhook: the rows are POSTed as JSON, in order, in batches of up to
 * BATCH_ROWS rows and about BATCH_BYTES each:
 *
 *   {"job_id": "42", "database": "web", "columns": ["path", "n"], "batch": 1, "batches": 3,
 *    "rows": [{"path": "/home", "n": 2}, ...]}
 *
 * A result over MAX_ROWS rows or MAX_BYTES is not sent at all (nothing half-sent by the cap); the first
 * batch the webhook refuses (HTTP outside 2xx, no answer in time, a refused address) fails the job. Sent
 * by the platform's one webhook sender (platform/webhookSender.ts); messages name the webhook by its origin
 * (and its result connection), never its path, query or credentials.
 */

export interface WebhookTarget {
  kind: 'webhook';
  url: string;
  /** How messages name it: "the webhook https://host" or "the result connection "x" (https://host)". */
  name: string;
}

const BATCH_ROWS = 1000;
const BATCH_BYTES = 1024 * 1024;
/** Caps of one job's output to a webhook. */
const MAX_WEBHOOK_ROWS = 100_000;
const MAX_BYTES = 16 * 1024 * 1024;
/** The whole send, over all its batches. */
const SEND_DEADLINE_MS = 5 * 60_000;

/** A webhook target when the URL is http(s), else null. */
export function webhookTarget(url: string, connection: string | null): WebhookTarget | null {
  if (!/^https?:\/\//i.test(url)) return null;
  const origin = webhookOrigin(url);
  const name = connection === null ? `the webhook ${origin}` : `the result connection "${connection}" (${origin})`;
  return { kind: 'webhook', url, name };
}

/** JSON of a value as msgpack gave it: big integers as numbers when exact, else as text; bytes as base64. */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
}

function batchesOf(job: JobRow, columns: string[], rows: Record<string, unknown>[]): WebhookBody[] {
  const groups: string[][] = [];
  let group: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    const text = JSON.stringify(row, jsonValue);
    if (group.length > 0 && (group.length >= BATCH_ROWS || bytes + text.length > BATCH_BYTES)) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(text);
    bytes += text.length + 1;
  }
  if (group.length > 0 || groups.length === 0) groups.push(group);
  const head = `"job_id":${JSON.stringify(String(job.id))},"database":${JSON.stringify(job.database_name)},"columns":${JSON.stringify(columns)}`;
  return groups.map((g, i) => ({
    label: `batch ${i + 1} of ${groups.length}`,
    body: `{${head},"batch":${i + 1},"batches":${groups.length},"rows":[${g.join(',')}]}`,
  }));
}

/** Sends a successful job's rows to its webhook; the line for the job's output, or throws a sentence for its stderr. */
export async function sendResultRows(
  deps: AppDeps,
  job: JobRow,
  target: WebhookTarget,
  result: { file: string; columns: string[]; bytes: number },
  signal?: AbortSignal,
): Promise<string> {
  const failed = (why: string) => new Error(`Sending the result to ${target.name} failed: ${why}`);
  if (result.bytes > MAX_BYTES) {
    throw failed(
      `the result is ${result.bytes} bytes, more than the ${MAX_BYTES} a job may send to a webhook; write it to a table or narrow the query.`,
    );
  }
  const rows = readResultRows(result.file, result.columns);
  if (rows.length > MAX_WEBHOOK_ROWS) {
    throw failed(
      `the result has ${rows.length} rows, more than the ${MAX_WEBHOOK_ROWS} a job may send to a webhook; write it to a table or narrow the query.`,
    );
  }
  const deadline = AbortSignal.timeout(SEND_DEADLINE_MS);
  const bodies = batchesOf(job, result.columns, rows);
  const outcome = await sendToWebhook(target.url, deps.config.outbound, bodies, {
    method: 'POST',
    headers: {},
    signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
  });
  if (deadline.aborted && outcome.error !== null) {
    throw failed(`it did not take the ${bodies.length} batches within ${SEND_DEADLINE_MS / 60_000} minutes.`);
  }
  if (outcome.error !== null) throw failed(outcome.error);
  const batches = bodies.length === 1 ? '1 batch' : `${bodies.length} batches`;
  return `${rows.length} rows sent to ${target.name} in ${batches} (HTTP ${outcome.responseCode})\n`;
}
