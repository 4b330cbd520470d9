import { Packr } from 'msgpackr';
import type { AppDeps } from '../platform/context';
import type { DatabaseRow, TableRow } from './catalog';
import { jsonSafe } from './columns';
import { tailRows } from './tableStore';

/** JSON has no bytes: binary values are shown in base64, BigInts as numbers or digit strings. */
function jsonValue(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (raw instanceof Uint8Array) return Buffer.from(raw).toString('base64');
  return jsonSafe(key, value);
}

/** Plain msgpack maps (no msgpackr record extension), strings as str: what every msgpack reader takes. */
const packr = new Packr({ useRecords: false, variableMapSize: true });

/**
 * The body of GET /v3/table/tail: the newest rows as concatenated msgpack maps (what td-client-ruby's
 * `tail` streams), or as JSON Lines with one object per row.
 */
export async function tailBody(
  deps: AppDeps,
  database: DatabaseRow,
  table: TableRow,
  count: number,
  format: 'json' | 'msgpack',
): Promise<{ body: string | Uint8Array<ArrayBuffer>; contentType: string }> {
  const rows = await tailRows(deps, database, table, count);
  if (format === 'msgpack') {
    const parts = rows.map((row) => packr.pack(row));
    return { body: new Uint8Array(Buffer.concat(parts)), contentType: 'application/x-msgpack' };
  }
  const body = rows.map((row) => `${JSON.stringify(row, jsonValue)}\n`).join('');
  return { body, contentType: 'application/json; charset=utf-8' };
}
