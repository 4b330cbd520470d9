import { readFileSync } from 'node:fs';
import { unpackMultiple } from 'msgpackr';

/** A job's msgpack result (concatenated arrays, one per row) as records keyed by column name. */
export function readResultRows(file: string, columns: string[]): Record<string, unknown>[] {
  const packed = readFileSync(file);
  const rows = packed.length === 0 ? [] : (unpackMultiple(packed) as unknown[][]);
  return rows.map((row) => {
    const record: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      record[column] = row[i] ?? null;
    });
    return record;
  });
}
