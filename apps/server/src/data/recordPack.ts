import type { PreparedRecord } from './plane';
import type { TableBatch } from './tableStore';

/**
 * Prepared records laid out flat for the trip to a worker thread. A message is copied by V8's structured
 * clone, whose cost grows with the number of objects: records as `{ time, values: [[column, value], …] }`
 * are one object per record, one array per cell and the column name again in every cell. Flat, a batch is
 * its column names once, two typed arrays (copied as bytes) and one array of the cell values.
 */
export interface PackedRecords {
  /** Every column name the records use, once. */
  columns: string[];
  times: Float64Array;
  /** Per record: its number of cells, then the index in `columns` of each cell's column. */
  shape: Uint32Array;
  /** The cell values of every record, in order. */
  cells: unknown[];
}

export function packRecords(records: PreparedRecord[]): PackedRecords {
  const index = new Map<string, number>();
  const columns: string[] = [];
  const times = new Float64Array(records.length);
  let size = records.length;
  for (const r of records) size += r.values.length;
  const shape = new Uint32Array(size);
  const cells: unknown[] = new Array(size - records.length);
  let s = 0;
  let c = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as PreparedRecord;
    times[i] = r.time;
    shape[s++] = r.values.length;
    for (const [column, value] of r.values) {
      let at = index.get(column);
      if (at === undefined) {
        at = columns.length;
        index.set(column, at);
        columns.push(column);
      }
      shape[s++] = at;
      cells[c++] = value;
    }
  }
  return { columns, times, shape, cells };
}

export function unpackRecords(packed: PackedRecords): PreparedRecord[] {
  const { columns, times, shape, cells } = packed;
  const records: PreparedRecord[] = new Array(times.length);
  let s = 0;
  let c = 0;
  for (let i = 0; i < times.length; i++) {
    const n = shape[s++] as number;
    const values: [string, unknown][] = new Array(n);
    for (let k = 0; k < n; k++) values[k] = [columns[shape[s++] as number] as string, cells[c++]];
    records[i] = { time: times[i] as number, values };
  }
  return records;
}

/** A table batch with its records packed, as a group commit sends it to the database's worker. */
export type PackedBatch = Omit<TableBatch, 'records'> & { packed: PackedRecords };

export const packBatch = ({ records, ...rest }: TableBatch): PackedBatch => ({ ...rest, packed: packRecords(records) });

export const unpackBatch = ({ packed, ...rest }: PackedBatch): TableBatch => ({
  ...rest,
  records: unpackRecords(packed),
});
