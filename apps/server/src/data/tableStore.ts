import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { run } from '../platform/storage';
import { workIfAny } from '../platform/work';
import { createTableRow, type DatabaseRow, findTable, type TableRow } from './catalog';
import { catalogFigures } from './catalogFigures';
import { columnNameForKey, readAs, readMetaSchema, type SchemaEntry } from './columns';
import { dataPlane, onDuck } from './dataPlane';
import { appendRowsInWorker } from './fileWrites';
import { type DataTx, type Meta, type PreparedRecord, TableMovedAway, tableLimits } from './plane';

/**
 * Writes and reads the rows of customer tables through the data plane (plane.ts: DuckDB files or
 * PostgreSQL schemas), and keeps the catalog's figures in line with the figures the data plane keeps
 * next to the rows. Identifiers are safe to quote because table names match the name rule and column
 * names the column rule (columns.ts).
 */

export type { PreparedRecord } from './plane';
export { tableLimits } from './plane';

/** `time` must be a date the wire can show: 0001-01-01 to 9999-12-31 (Unix seconds). */
const MIN_TIME = -62135596800;
const MAX_TIME = 253402300799;

/** A `time` value as stored: an integer of Unix seconds in years 1 to 9999, or null when it is not one. */
export function validTime(value: unknown): number | null {
  const t = typeof value === 'bigint' ? Number(value) : value;
  return typeof t === 'number' && Number.isSafeInteger(t) && t >= MIN_TIME && t <= MAX_TIME ? t : null;
}

/**
 * Checks a record and maps its keys to columns (columns.ts). `time` must be an integer (Unix seconds);
 * when absent or null it is `defaultTime`, and without one the record is refused.
 */
export function prepareRecord(record: Record<string, unknown>, defaultTime?: number): PreparedRecord {
  if (!record || typeof record !== 'object' || Array.isArray(record)) {
    throw badRequest('A record must be a JSON object of column names to values.');
  }
  let time: number | undefined = defaultTime;
  const values: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const [key, value] of Object.entries(record)) {
    if (key === 'time') {
      if (value === null || value === undefined) continue;
      const t = validTime(value);
      if (t === null) {
        throw badRequest(
          `"time" must be an integer Unix time in seconds (years 1 to 9999), not ${JSON.stringify(String(value)).slice(0, 40)}.`,
        );
      }
      time = t;
      continue;
    }
    const column = columnNameForKey(key);
    if (column === 'time' || seen.has(column)) {
      throw badRequest(`The key "${key}" maps to the column "${column}", which another key of the record also uses.`);
    }
    seen.add(column);
    values.push([column, value]);
  }
  if (values.length > tableLimits.maxColumns) {
    throw badRequest(`A record can have at most ${tableLimits.maxColumns} keys besides "time".`);
  }
  if (time === undefined) throw badRequest('The record has no "time": give an integer Unix time in seconds.');
  return { time, values };
}

/** Copies a table's figures and schema from the data plane to the catalog. */
async function syncCatalog(deps: AppDeps, database: DatabaseRow, meta: Meta): Promise<void> {
  await run(deps.storage.db, catalogFigures(database, meta, meta.updated_at ?? deps.clock.now().getTime()));
}

/**
 * Copies figures to the catalog after the rows are durable. A failure here (the control database busy or
 * away) must not fail a write that is already committed: the figures are copied again by the table's next
 * write and at start-up.
 */
async function copyToCatalog(deps: AppDeps, database: DatabaseRow, metas: Meta[]): Promise<void> {
  try {
    for (const meta of metas) await syncCatalog(deps, database, meta);
  } catch (err) {
    deps.logger.warn('catalog figures not updated after a write', {
      database: database.id,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** Copies the figures of every table of a database to the catalog (after a write that may have failed). */
export async function refreshCatalog(deps: AppDeps, database: DatabaseRow): Promise<void> {
  for (const meta of await dataPlane(deps).figures(database)) await syncCatalog(deps, database, meta);
}

/**
 * At start-up: copies every database's figures to the catalog, so a crash between a data commit and its
 * catalog update never shows stale counts.
 */
export async function reconcileCatalog(deps: AppDeps): Promise<void> {
  const databases = await deps.storage.db.selectFrom('databases').selectAll().orderBy('id').execute();
  for (const database of databases) await refreshCatalog(deps, database);
}

export interface TableBatch {
  table: string;
  records: PreparedRecord[];
  /** Create the table on first write (postback, records API). */
  createTable?: boolean;
  /** Drop the table's rows first, in the same transaction (a query's result output with mode=replace). */
  replace?: boolean;
}

/** The catalog rows of the batches' tables, created where allowed; batches of one table merged. */
async function batchTables(
  deps: AppDeps,
  database: DatabaseRow,
  batches: TableBatch[],
): Promise<{ table: TableRow; records: PreparedRecord[]; replace: boolean }[]> {
  const byTable = new Map<string, { table: TableRow; records: PreparedRecord[]; replace: boolean }>();
  for (const b of batches) {
    const entry = byTable.get(b.table);
    if (entry) {
      for (const r of b.records) entry.records.push(r);
      continue;
    }
    // Read here, in the database's lane, never taken from the caller: a move of the table (which holds the lane)
    // may have taken it to another database since the caller looked.
    let table = await findTable(deps.storage.db, database.account_id, database.id, b.table);
    if (!table) {
      if (!b.createTable) throw badRequest(`The table "${b.table}" does not exist in the database "${database.name}".`);
      table = await createTableRow(deps, database, b.table, []);
    }
    byTable.set(b.table, { table, records: [...b.records], replace: b.replace === true });
  }
  return [...byTable.values()];
}

/**
 * Writes several tables' records of one database in ONE data transaction (group commit), and brings the
 * catalog up to date: within the write itself where the plane does that (PostgreSQL: one commit, one sync, and
 * no statement more for a request to wait on), after it otherwise. `within` runs inside the transaction, for
 * callers that record their own progress atomically with the rows (bulk import commit).
 */
export async function writeBatches(
  deps: AppDeps,
  database: DatabaseRow,
  batches: TableBatch[],
  within?: (t: DataTx) => Promise<void>,
  retried = false,
): Promise<{ inserted: number }> {
  // One write per table, however many requests the group commit merged.
  const tables = await batchTables(deps, database, batches);
  const now = deps.clock.now().getTime();
  let result: { metas: Meta[]; copied: boolean };
  try {
    result = await dataPlane(deps).transaction(
      database,
      async (t) => {
        const written: Meta[] = [];
        for (const { table, records, replace } of tables) {
          if (t.holdsTable && !(await t.holdsTable(table.name))) throw new TableMovedAway(database.name, table.name);
          if (replace) await t.dropTable(table.name);
          written.push(await t.append(table, records, now));
        }
        await within?.(t);
        return { metas: written, copied: t.figuresInCatalog === true };
      },
      tables.map(({ table }) => table.name),
    );
  } catch (err) {
    // A table moved away after the catalog was read (PostgreSQL): once more from the catalog, which now says where.
    if (err instanceof TableMovedAway && !retried) return writeBatches(deps, database, batches, within, true);
    throw err;
  }
  const { metas, copied } = result;
  if (!copied) await copyToCatalog(deps, database, metas);
  return { inserted: batches.reduce((n, b) => n + b.records.length, 0) };
}

/** Writes rows into a table, adding columns for new keys (the API bulk import uses). */
export async function appendRows(
  deps: AppDeps,
  database: DatabaseRow,
  tableName: string,
  rows: Record<string, unknown>[],
  opts: { createTable?: boolean; replace?: boolean; within?: (t: DataTx) => Promise<void> } = {},
): Promise<{ inserted: number }> {
  // From the server, a DuckDB file is written by its owner worker (decision 0031), never by the request loop.
  if (onDuck(deps) && workIfAny(deps) && !opts.within) {
    return appendRowsInWorker(deps, database, tableName, rows, opts);
  }
  const records = rows.map((row) => prepareRecord(row));
  return writeBatches(
    deps,
    database,
    [{ table: tableName, records, createTable: opts.createTable ?? false, replace: opts.replace ?? false }],
    opts.within,
  );
}

/** Sets (`replace`) or extends a table's schema with real ALTERs, and updates the catalog. */
export async function changeSchema(
  deps: AppDeps,
  database: DatabaseRow,
  table: TableRow,
  schema: SchemaEntry[],
  mode: 'replace' | 'append',
): Promise<void> {
  const meta = await dataPlane(deps).transaction(database, (t) => t.changeSchema(table, schema, mode));
  await deps.storage.db
    .updateTable('tables')
    .set({ schema_json: meta.schema_json, updated_at: deps.clock.now().getTime() })
    .where('id', '=', table.id)
    .where('account_id', '=', table.account_id)
    .execute();
}

/** Creates a new table's data at once, so queries see it (and its schema) before any write. */
export async function createDataTable(deps: AppDeps, database: DatabaseRow, table: TableRow): Promise<void> {
  await dataPlane(deps).transaction(database, (t) => t.ensureDataTable(table));
}

/** Removes a table's rows and its figures (after its catalog row is gone). */
export async function dropDataTable(deps: AppDeps, database: DatabaseRow, name: string): Promise<void> {
  await dataPlane(deps).transaction(database, (t) => t.dropTable(name));
}

/** A 64-bit integer as a number when a double holds it exactly. */
function fromSafe(v: unknown): unknown {
  return typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v;
}

/** The newest `count` rows by time, as records (`time` first, nulls left out, nested values parsed). */
export async function tailRows(
  deps: AppDeps,
  database: DatabaseRow,
  table: TableRow,
  count: number,
): Promise<Record<string, unknown>[]> {
  const found = await dataPlane(deps).tail(database, table.name, count);
  if (!found) return [];
  const types = new Map(readMetaSchema(found.meta.schema_json).map(([name, type]) => [name, type]));
  return found.rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) {
      if (v === null) continue;
      out[k] = readAs(types.get(k) ?? 'long', fromSafe(v));
    }
    return out;
  });
}
