import { decodeBatch, defaultPartLimits, RecordScanner } from '@svc/bulk-format';
import Papa from 'papaparse';
import { ApiError, errorFromBody } from '../../lib/api';
import type { Rejection } from './model/types';

/** Offers bytes or text to the user as a file download. */
export function saveFile(name: string, data: BlobPart, type: string) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The rows left out as CSV (rejected, and skipped by the user's fixes): where they were, which, why, and
 * their values, ready to fix and import again.
 */
export function rejectionsCsv(rejections: Rejection[]): string {
  const keys = [...new Set(rejections.flatMap((r) => Object.keys(r.values)))];
  return Papa.unparse({
    fields: ['file', 'row', 'left out as', 'reason', ...keys],
    data: rejections.map((r) => [
      r.file,
      r.row,
      r.skipped ? 'skipped' : 'rejected',
      r.reason,
      ...keys.map((k) => {
        const v = r.values[k];
        return v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
      }),
    ]),
  });
}

/** The records the server's perform refused, fetched and turned from gzip msgpack into JSON Lines. */
export async function errorRecordsAsJsonLines(url: string): Promise<string> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw errorFromBody(res.status, await res.json().catch(() => undefined), res.statusText);
  if (!res.body) throw new ApiError(res.status, 'The server sent no error records.', 'Empty');
  const scanner = new RecordScanner(defaultPartLimits);
  const reader = res.body.pipeThrough(new DecompressionStream('gzip')).getReader();
  const lines: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const record of decodeBatch(scanner.push(value))) {
      lines.push(JSON.stringify(record, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
    }
  }
  scanner.end();
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
