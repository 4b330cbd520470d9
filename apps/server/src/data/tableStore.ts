import { existsSync } from 'node:fs';
import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { createTableRow, type DatabaseRow, databaseFile, findTable, type TableRow } from './catalog';
import { columnNameForKey, inferType, readAs, type SchemaEntry, type Stored, storeAs, storedBytes } from './columns';
import { closeDataFile, type DataFile, dataFile, META_TABLE, statement } from './dataFiles';
import { applySchema, ensureDataTable, fromSafe, type Meta, q, readMeta, tableLimits } from './dataTables';

/**
 * Writes and reads the rows of customer tables. Each table is a real SQLite table in its database's file:
 * `time INTEGER NOT NULL` (indexed) plus one typed column per schema entry. Identifiers are safe to quote
 * because table names match the name rule and column names the column rule (columns.ts).
 */

export { tableLimits } from './dataTables';

/** A record whose keys are mapped to column names and whose `time` is known. */
export interface PreparedRecord {
  time: number;
  values: [string, unknown][];
}

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

/** Copies a table's figures and schema from its file to the catalog. */
function syncCatalog(deps: AppDeps, database: DatabaseRow, meta: Meta): void {
  deps.db
    .prepare(
      `UPDATE tables SET schema_json = ?, count = ?, estimated_storage_size = ?, last_log_timestamp = ?,
         counter_updated_at = ?, updated_at = CASE WHEN schema_json = ? THEN updated_at ELSE ? END
       WHERE account_id = ? AND database_id = ? AND name = ?`,
    )
    .run(
      meta.schema_json,
      meta.row_count,
      meta.bytes,
      meta.max_time,
      meta.updated_at,
      meta.schema_json,
      meta.updated_at ?? deps.clock.now().getTime(),
      database.account_id,
      database.id,
      meta.name,
    );
}

/**
 * Copies figures to the catalog after the rows are durable. A failure here (the control database busy for
 * longer than the busy timeout) must not fail a write that is already committed: the figures are copied
 * again by the table's next write and whenever the file is opened.
 */
function copyToCatalog(deps: AppDeps, database: DatabaseRow, metas: Meta[]): void {
  try {
    for (const meta of metas) syncCatalog(deps, database, meta);
  } catch (err) {
    deps.logger.warn('catalog figures not updated after a write', {
      database: database.id,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** Copies the figures of every table in a database's file to the catalog (after a write that may have failed). */
export function refreshCatalog(deps: AppDeps, database: DatabaseRow): void {
  const f = openDataFile(deps, database);
  const metas = f.db.prepare(`SELECT * FROM ${META_TABLE}`).all() as Meta[];
  for (const meta of metas) syncCatalog(deps, database, meta);
}

/** Opens a database's file; on first open, brings the catalog in line with the figures in the file. */
export function openDataFile(deps: AppDeps, database: DatabaseRow): DataFile {
  return dataFile(deps, database, (f) => {
    const metas = f.db.prepare(`SELECT * FROM ${META_TABLE}`).all() as Meta[];
    for (const meta of metas) syncCatalog(deps, database, meta);
  });
}

/**
 * At start-up: copies every data file's figures to the catalog, so a crash between a data commit and
 * its catalog update never shows stale counts. Files are closed again; writes reopen them.
 */
export function reconcileCatalog(deps: AppDeps): void {
  const databases = deps.db.prepare('SELECT * FROM databases').all() as DatabaseRow[];
  for (const database of databases) {
    if (!existsSync(databaseFile(deps.config.dataDir, database.account_id, database.id))) continue;
    openDataFile(deps, database);
    closeDataFile(deps, database);
  }
}

/** Writes prepared records into one table inside the caller's transaction; returns the catalog meta. */
function writeRecords(f: DataFile, meta: Meta, records: PreparedRecord[], now: number): Meta {
  let schema = JSON.parse(meta.schema_json) as SchemaEntry[];
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
        if (!added.some(([n]) => n === column)) widen.push([column, 'double']);
        else added[added.findIndex(([n]) => n === column)] = [column, 'double'];
      }
    }
  }
  if (added.length > 0 || widen.length > 0) schema = applySchema(f, meta, [...widen, ...added], false);
  const columns = schema.map(([name]) => name);
  const colTypes = schema.map(([, type]) => type);
  const index = new Map(columns.map((c, i) => [c, i]));
  const sql = `INSERT INTO ${q(meta.name)} (time${columns.map((c) => `, ${q(c)}`).join('')}) VALUES (?${', ?'.repeat(columns.length)})`;
  const insert = statement(f, sql);
  const params: Stored[] = new Array(columns.length + 1);
  let bytes = 0;
  let maxTime = meta.max_time;
  for (const r of records) {
    params.fill(null);
    params[0] = r.time;
    bytes += 8;
    for (const [column, value] of r.values) {
      const i = index.get(column);
      if (i === undefined) continue;
      const stored = storeAs(colTypes[i] as string, value);
      params[i + 1] = stored;
      bytes += storedBytes(stored);
    }
    insert.run(params);
    if (maxTime === null || r.time > maxTime) maxTime = r.time;
  }
  meta.row_count += records.length;
  meta.bytes += bytes;
  meta.max_time = maxTime;
  meta.updated_at = now;
  statement(
    f,
    `UPDATE ${META_TABLE} SET schema_json = ?, row_count = ?, bytes = ?, max_time = ?, updated_at = ? WHERE name = ?`,
  ).run(meta.schema_json, meta.row_count, meta.bytes, meta.max_time, meta.updated_at, meta.name);
  return meta;
}

export interface TableBatch {
  table: string;
  records: PreparedRecord[];
  /** Create the table on first write (postback, records API). */
  createTable?: boolean;
}

/**
 * Writes several tables' records of one database in ONE transaction of its file (group commit), then
 * brings the catalog up to date. `within` runs inside the same transaction, for callers that record
 * their own progress atomically with the rows (bulk import commit).
 */
export function writeBatches(
  deps: AppDeps,
  database: DatabaseRow,
  batches: TableBatch[],
  within?: (f: DataFile) => void,
  opts: { catalog?: boolean } = {},
): { inserted: number } {
  // One write per table, however many requests the group commit merged.
  const byTable = new Map<string, { table: TableRow; records: PreparedRecord[] }>();
  for (const b of batches) {
    const entry = byTable.get(b.table);
    if (entry) {
      for (const r of b.records) entry.records.push(r);
      continue;
    }
    let table = findTable(deps.db, database.account_id, database.id, b.table);
    if (!table) {
      if (!b.createTable) throw badRequest(`The table "${b.table}" does not exist in the database "${database.name}".`);
      table = createTableRow(deps, database, b.table, []);
    }
    byTable.set(b.table, { table, records: [...b.records] });
  }
  const f = openDataFile(deps, database);
  const now = deps.clock.now().getTime();
  const metas = f.db.transaction(() => {
    const written = [...byTable.values()].map(({ table, records }) =>
      writeRecords(f, ensureDataTable(f, table), records, now),
    );
    within?.(f);
    return written;
  })();
  // Inside a caller's transaction (catalog: false) the figures are copied once that one commits.
  if (opts.catalog !== false) copyToCatalog(deps, database, metas);
  return { inserted: batches.reduce((n, b) => n + b.records.length, 0) };
}

/** Writes rows into a table's real SQLite table, adding columns for new keys (the API bulk import uses). */
export function appendRows(
  deps: AppDeps,
  database: DatabaseRow,
  tableName: string,
  rows: Record<string, unknown>[],
  opts: { createTable?: boolean; within?: (f: DataFile) => void } = {},
): { inserted: number } {
  const records = rows.map((row) => prepareRecord(row));
  return writeBatches(
    deps,
    database,
    [{ table: tableName, records, createTable: opts.createTable ?? false }],
    opts.within,
  );
}

/** Sets (`replace`) or extends a table's schema with real ALTERs, and updates the catalog. */
export function changeSchema(
  deps: AppDeps,
  database: DatabaseRow,
  table: TableRow,
  schema: SchemaEntry[],
  mode: 'replace' | 'append',
): void {
  const f = openDataFile(deps, database);
  const meta = f.db.transaction(() => {
    const m = ensureDataTable(f, table);
    applySchema(f, m, schema, mode === 'replace');
    statement(f, `UPDATE ${META_TABLE} SET schema_json = ? WHERE name = ?`).run(m.schema_json, m.name);
    return m;
  })();
  deps.db
    .prepare('UPDATE tables SET schema_json = ?, updated_at = ? WHERE id = ? AND account_id = ?')
    .run(meta.schema_json, deps.clock.now().getTime(), table.id, table.account_id);
}

/** Creates a new table's SQLite table at once, so queries see it (and its schema) before any write. */
export function createDataTable(deps: AppDeps, database: DatabaseRow, table: TableRow): void {
  const f = openDataFile(deps, database);
  f.db.transaction(() => ensureDataTable(f, table))();
}

/** Removes a table's rows and its figures from the file (after its catalog row is gone). */
export function dropDataTable(deps: AppDeps, database: DatabaseRow, name: string): void {
  const f = openDataFile(deps, database);
  f.db.transaction(() => {
    f.db.exec(`DROP TABLE IF EXISTS ${q(name)}`);
    statement(f, `DELETE FROM ${META_TABLE} WHERE name = ?`).run(name);
  })();
  f.statements.clear();
}

/** The newest `count` rows by time, as records (`time` first, nulls left out, nested values parsed). */
export function tailRows(
  deps: AppDeps,
  database: DatabaseRow,
  table: TableRow,
  count: number,
): Record<string, unknown>[] {
  const f = openDataFile(deps, database);
  const meta = readMeta(f, table.name);
  if (!meta) return [];
  const schema = JSON.parse(meta.schema_json) as SchemaEntry[];
  const types = new Map(schema.map(([name, type]) => [name, type]));
  const columns = ['time', ...schema.map(([name]) => name)].map(q).join(', ');
  const rows = f.db
    .prepare(`SELECT ${columns} FROM ${q(table.name)} ORDER BY time DESC, rowid DESC LIMIT ?`)
    .safeIntegers(true)
    .all(count) as Record<string, unknown>[];
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) {
      if (v === null) continue;
      out[k] = readAs(types.get(k) ?? 'long', fromSafe(v));
    }
    return out;
  });
}
