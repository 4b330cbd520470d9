import { badRequest } from '../platform/errors';
import { inferType, type SchemaEntry, type Stored, storeAs, storedBytes } from './columns';
import type { PreparedRecord } from './plane';

/** What both data plane implementations do to records before they write them: pure functions. */

/**
 * The columns a batch of records needs beyond `schema`: new keys with the type of their first non-null
 * value, and whole-number columns that receive a fraction widened to `double`.
 */
export function schemaGrowth(schema: SchemaEntry[], records: PreparedRecord[]): SchemaEntry[] {
  const types = new Map(schema.map(([name, type]) => [name, type]));
  const added: SchemaEntry[] = [];
  const widen: SchemaEntry[] = [];
  for (const r of records) {
    for (const [column, value] of r.values) {
      const type = types.get(column);
      if (type === undefined) {
        const inferred = inferType(value);
        if (inferred === null) continue;
        types.set(column, inferred);
        added.push([column, inferred]);
      } else if ((type === 'long' || type === 'int') && typeof value === 'number' && !Number.isInteger(value)) {
        // A fraction in a whole-number column widens it rather than losing the fraction.
        types.set(column, 'double');
        const i = added.findIndex(([n]) => n === column);
        if (i < 0) widen.push([column, 'double']);
        else added[i] = [column, 'double'];
      }
    }
  }
  return [...widen, ...added];
}

/**
 * The rows as stored, `time` first then one value per schema column, with their figures: bytes
 * (the basis of `estimated_storage_size`) and the largest `time`. Calls `each` per row, so a writer can
 * insert as it goes without holding every row.
 */
export function storedRows(
  schema: SchemaEntry[],
  records: PreparedRecord[],
  each: (row: Stored[]) => void,
): { bytes: number; maxTime: number | null } {
  const index = new Map(schema.map(([name], i) => [name, i]));
  const types = schema.map(([, type]) => type);
  let bytes = 0;
  let maxTime: number | null = null;
  for (const r of records) {
    const row: Stored[] = new Array(schema.length + 1).fill(null);
    row[0] = r.time;
    bytes += 8;
    for (const [column, value] of r.values) {
      const i = index.get(column);
      if (i === undefined) continue;
      const stored = storeAs(types[i] as string, value);
      row[i + 1] = stored;
      bytes += storedBytes(stored);
    }
    each(row);
    if (maxTime === null || r.time > maxTime) maxTime = r.time;
  }
  return { bytes, maxTime };
}

/** The figures after appending: counts and bytes added, the newest time kept. */
export function grownMeta(
  meta: { row_count: number; bytes: number; max_time: number | null },
  added: number,
  figures: { bytes: number; maxTime: number | null },
) {
  const max =
    meta.max_time === null
      ? figures.maxTime
      : figures.maxTime === null
        ? meta.max_time
        : Math.max(meta.max_time, figures.maxTime);
  return { row_count: meta.row_count + added, bytes: meta.bytes + figures.bytes, max_time: max };
}

/** What a schema change does, worked out before any ALTER (both implementations follow it). */
export interface SchemaPlan {
  add: SchemaEntry[];
  convert: { name: string; from: string; to: string }[];
  drop: string[];
  /** The schema afterwards. */
  next: SchemaEntry[];
}

/**
 * Plans making `current` match `schema`: new columns added, changed types converted, and with
 * `dropMissing` (update-schema sets the schema, as `td schema:set`/`schema:remove` expect) columns not
 * listed dropped with their data. Refuses more than `maxColumns` columns besides `time`.
 */
export function planSchema(
  current: SchemaEntry[],
  schema: SchemaEntry[],
  dropMissing: boolean,
  maxColumns: number,
): SchemaPlan {
  const types = new Map(current.map(([name, type]) => [name, type]));
  const added = schema.filter(([name]) => !types.has(name)).length;
  // Checked before any ALTER: past the engine's own limit the ALTER itself would fail.
  if ((dropMissing ? schema.length : current.length + added) > maxColumns) {
    throw badRequest(`A table can have at most ${maxColumns} columns besides "time".`);
  }
  const plan: SchemaPlan = { add: [], convert: [], drop: [], next: dropMissing ? [...schema] : [...current] };
  for (const entry of schema) {
    const [name, type] = entry;
    const had = types.get(name);
    if (had === undefined) plan.add.push(entry);
    else if (had !== type) plan.convert.push({ name, from: had, to: type });
    if (!dropMissing) {
      const i = plan.next.findIndex(([n]) => n === name);
      if (i >= 0) plan.next[i] = entry;
      else plan.next.push(entry);
    }
  }
  if (dropMissing) {
    const keep = new Set(schema.map(([n]) => n));
    for (const [name] of current) if (!keep.has(name)) plan.drop.push(name);
  }
  return plan;
}

/** A merge's records reduced to the last of each key, with each one's key as stored values. */
export interface KeyedRecords {
  records: PreparedRecord[];
  keys: Stored[][];
}

/** One text per key tuple, so equal stored values (numbers, big integers, text, bytes) compare equal. */
function keyText(values: Stored[]): string {
  return values
    .map((v) =>
      typeof v === 'bigint'
        ? `n${v}`
        : Buffer.isBuffer(v)
          ? `b${v.toString('base64')}`
          : typeof v === 'number'
            ? `n${v}`
            : `s${String(v)}`,
    )
    .join('\u0000');
}

/**
 * For an upsert by `key`: the last record of each key in the order given (later records are newer), and
 * each one's key values as the columns store them. A key column without a value is refused: NULL is no
 * key, and a row keyed by it could never be replaced.
 */
export function lastPerKey(
  table: string,
  schema: SchemaEntry[],
  records: PreparedRecord[],
  key: string[],
): KeyedRecords {
  const types = new Map(schema.map(([name, type]) => [name, type]));
  const byKey = new Map<string, { record: PreparedRecord; key: Stored[] }>();
  for (const r of records) {
    const values = new Map(r.values);
    const stored = key.map((column) => {
      const type = types.get(column);
      const v = type === undefined ? null : storeAs(type, values.get(column));
      if (v === null) {
        throw badRequest(
          `A row has no value in the key column "${column}" of "${table}": key columns must never be empty. Choose key columns that always hold a value (the source's primary key does).`,
        );
      }
      return v;
    });
    const text = keyText(stored);
    // Deleted first, so the record takes its place at the end: the map keeps the newest in arrival order.
    byKey.delete(text);
    byKey.set(text, { record: r, key: stored });
  }
  const out: KeyedRecords = { records: [], keys: [] };
  for (const { record, key: k } of byKey.values()) {
    out.records.push(record);
    out.keys.push(k);
  }
  return out;
}

/** The bytes a stored row counts for in the figures: `time` and each value it holds. */
export function rowBytes(row: Record<string, unknown>): number {
  let bytes = 0;
  for (const [column, v] of Object.entries(row)) {
    if (column === 'time') bytes += 8;
    else if (v !== null && v !== undefined) bytes += storedBytes(v as Stored);
  }
  return bytes;
}

/** The figures after a merge replaced rows: their count and bytes taken off, the newest time read again. */
export function shrunkMeta<M extends { row_count: number; bytes: number; max_time: number | null }>(
  meta: M,
  replaced: number,
  bytes: number,
  maxTime: number | null,
): M {
  return {
    ...meta,
    row_count: Math.max(0, meta.row_count - replaced),
    bytes: Math.max(0, meta.bytes - bytes),
    max_time: maxTime,
  };
}
