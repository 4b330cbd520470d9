import { z } from 'zod';
import type { SchemaEntry, Stored } from './columns';
import { storeAs, storedBytes } from './columns';

/**
 * Rows laid out by column, as bulk import stages them (decision 0027): perform sorts and checks the records
 * once and lays them out for the insert, so commit only converts each value to its column's type and inserts.
 * Pure data and functions; the data plane writes blocks (`DataTx.appendBlocks`), bulk import builds them
 * (bulk-import/columnStager.ts).
 */

/**
 * Rows by column: row `r` has `time[r]`, and `values[c][r]` in column `columns[c]`: undefined where the row has
 * no such key, null where its key holds null (the figures count a null value, not a missing one).
 */
export interface RowBlock {
  columns: string[];
  time: number[];
  values: unknown[][];
}

/**
 * What a set of blocks needs of the table's schema: every column that holds a value, in the order a value first
 * appeared (rows in order, a row's columns in order), with the type of that first value and whether any value of
 * the column is a number with a fraction (which widens a whole-number column to `double`).
 */
export const columnSummary = z.array(z.tuple([z.string(), z.string(), z.boolean()]));
/** `[column, firstType, fraction]` per column. */
export type ColumnSummary = z.infer<typeof columnSummary>;

/** The summary of rows of `first` followed by rows of `then` (parts performed apart, then put in order). */
export function mergeSummaries(first: ColumnSummary, then: ColumnSummary): ColumnSummary {
  const out = first.map(([column, type, fraction]): ColumnSummary[number] => [column, type, fraction]);
  const at = new Map(out.map((entry) => [entry[0], entry]));
  for (const [column, type, fraction] of then) {
    const had = at.get(column);
    if (had) had[2] ||= fraction;
    else {
      const entry: ColumnSummary[number] = [column, type, fraction];
      out.push(entry);
      at.set(column, entry);
    }
  }
  return out;
}

/**
 * The columns rows of this summary need beyond `schema`: exactly what `schemaGrowth` (rows.ts) finds for the
 * same rows given in one batch. New columns take the type of their first value (`double` when a whole-number
 * column would receive a fraction), and existing whole-number columns receiving a fraction widen to `double`.
 */
export function summaryGrowth(schema: SchemaEntry[], summary: ColumnSummary): SchemaEntry[] {
  const types = new Map(schema.map(([name, type]) => [name, type]));
  const added: SchemaEntry[] = [];
  const widen: SchemaEntry[] = [];
  for (const [column, firstType, fraction] of summary) {
    const type = types.get(column);
    const whole = (t: string | undefined) => t === 'long' || t === 'int';
    if (type === undefined) added.push([column, whole(firstType) && fraction ? 'double' : firstType]);
    else if (whole(type) && fraction) widen.push([column, 'double']);
  }
  return [...widen, ...added];
}

/** The block's columns the schema has (the others hold no value anywhere), with their types and values. */
function blockColumns(schema: SchemaEntry[], block: RowBlock) {
  const types = new Map(schema.map(([name, type]) => [name, type]));
  const out = { columns: [] as string[], types: [] as string[], values: [] as unknown[][] };
  block.columns.forEach((column, c) => {
    const type = types.get(column);
    if (type === undefined) return;
    out.columns.push(column);
    out.types.push(type);
    out.values.push(block.values[c] as unknown[]);
  });
  return out;
}

/**
 * Writes row `r` of the columns as stored (`storeAs` of each column's type) into `out` from `at`, and returns
 * the bytes they count for in the figures: what `storedRows` counts for the same record.
 */
function storeColumns(types: string[], values: unknown[][], r: number, out: unknown[], at: number): number {
  let bytes = 0;
  for (let c = 0; c < types.length; c++) {
    const v = (values[c] as unknown[])[r];
    if (v === undefined) {
      out[at + c] = null;
      continue;
    }
    const stored = storeAs(types[c] as string, v);
    out[at + c] = stored;
    bytes += storedBytes(stored);
  }
  return bytes;
}

/** Figures of the rows written so far: counted as `storedRows` (rows.ts) counts the same records. */
export interface BlockFigures {
  rows: number;
  bytes: number;
  maxTime: number | null;
}

/**
 * The blocks' rows as stored, `time` first then every column of `schema` (null where a block has none), for
 * writers that stream rows (PostgreSQL's COPY). Lazily, one row at a time in ONE array reused for every row
 * (the reader must take its values before asking for the next); `figures` grows as the rows go.
 */
export function* storedSchemaRows(
  schema: SchemaEntry[],
  blocks: Iterable<RowBlock>,
  figures: BlockFigures,
): Generator<Stored[]> {
  const position = new Map(schema.map(([name], i) => [name, i + 1]));
  const row: Stored[] = new Array(schema.length + 1);
  for (const block of blocks) {
    const { columns, types, values } = blockColumns(schema, block);
    const at = columns.map((column) => position.get(column) as number);
    const cells: Stored[] = new Array(columns.length);
    for (let r = 0; r < block.time.length; r++) {
      row.fill(null);
      const time = block.time[r] as number;
      row[0] = time;
      figures.bytes += 8 + storeColumns(types, values, r, cells, 0);
      for (let c = 0; c < at.length; c++) row[at[c] as number] = cells[c] as Stored;
      figures.rows++;
      if (figures.maxTime === null || time > figures.maxTime) figures.maxTime = time;
      yield row;
    }
  }
}
