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
