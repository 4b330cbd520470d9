import type { TableRow } from './catalog';
import { readAs, readMetaSchema, readTableSchema, type SchemaEntry, sqliteType, storeAs } from './columns';
import { type DataFile, META_TABLE, statement } from './dataFiles';
import type { Meta } from './plane';
import { planSchema } from './rows';

/**
 * The SQLite DDL of customer tables in their data file: creating a table from its catalog row, and changing its
 * columns with real ALTERs. Identifiers are safe to quote: table names follow the name rule and column
 * names the column rule (columns.ts).
 */

export const tableLimits = {
  /** Columns a table may have besides `time` (SQLite allows 2000). */
  maxColumns: 1000,
};

export type { Meta } from './plane';

export const q = (id: string) => `"${id}"`;

export function readMeta(f: DataFile, name: string): Meta | null {
  return (statement(f, `SELECT * FROM ${META_TABLE} WHERE name = ?`).get(name) as Meta | undefined) ?? null;
}

/** Creates the table's data in the file from its catalog row, dropping a leftover of an earlier table. */
export function ensureDataTable(f: DataFile, table: TableRow): Meta {
  const existing = readMeta(f, table.name);
  if (existing) return existing;
  const schema = readTableSchema(table.schema_json);
  const columns = schema.map(([name, type]) => `, ${q(name)} ${sqliteType(type)}`).join('');
  f.db.exec(`DROP TABLE IF EXISTS ${q(table.name)}`);
  f.db.exec(`CREATE TABLE ${q(table.name)} (time INTEGER NOT NULL${columns})`);
  f.db.exec(`CREATE INDEX ${q(`${table.name}$time`)} ON ${q(table.name)} (time)`);
  f.statements.clear();
  const meta: Meta = {
    name: table.name,
    schema_json: table.schema_json,
    row_count: 0,
    bytes: 0,
    max_time: null,
    updated_at: null,
  };
  statement(
    f,
    `INSERT INTO ${META_TABLE} (name, schema_json, row_count, bytes, max_time, updated_at) VALUES (?, ?, 0, 0, NULL, NULL)`,
  ).run(table.name, table.schema_json);
  return meta;
}

/**
 * Changes a column's type in place with real ALTERs: a new column, the values converted the way writes
 * convert them, the old column dropped and the new one renamed.
 */
function convertColumn(f: DataFile, tableName: string, column: string, from: string, to: string): void {
  const tmp = `${column}$new`;
  f.db.exec(`ALTER TABLE ${q(tableName)} ADD COLUMN ${q(tmp)} ${sqliteType(to)}`);
  const page = f.db
    .prepare(
      `SELECT rowid AS id, ${q(column)} AS v FROM ${q(tableName)} WHERE rowid > ? AND ${q(column)} IS NOT NULL ORDER BY rowid LIMIT 10000`,
    )
    .safeIntegers(true);
  const update = f.db.prepare(`UPDATE ${q(tableName)} SET ${q(tmp)} = ? WHERE rowid = ?`);
  // In pages: a connection cannot write while a statement of it is still iterating.
  let after = 0n;
  for (;;) {
    const rows = page.all(after) as { id: bigint; v: unknown }[];
    if (rows.length === 0) break;
    for (const row of rows) update.run(storeAs(to, readAs(from, fromSafe(row.v))), row.id);
    after = (rows[rows.length - 1] as { id: bigint }).id;
  }
  f.db.exec(`ALTER TABLE ${q(tableName)} DROP COLUMN ${q(column)}`);
  f.db.exec(`ALTER TABLE ${q(tableName)} RENAME COLUMN ${q(tmp)} TO ${q(column)}`);
  f.statements.clear();
}

export function fromSafe(v: unknown): unknown {
  return typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v;
}

/** Our index on a merge key: its name holds the columns, so another key gets its own. */
const keyIndexName = (table: string, key: string[]) => `${table}$key:${key.join(',')}`;

/** Creates the index a merge by `key` finds rows with, once. */
export function ensureKeyIndex(f: DataFile, table: string, key: string[]): void {
  f.db.exec(`CREATE INDEX IF NOT EXISTS ${q(keyIndexName(table, key))} ON ${q(table)} (${key.map(q).join(', ')})`);
}

/** Drops the table's key indexes: SQLite refuses to drop an indexed column; the next merge makes them again. */
function dropKeyIndexes(f: DataFile, table: string): void {
  const prefix = `${table}$key:`;
  const names = f.db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND substr(name, 1, ?) = ?")
    .pluck()
    .all(table, prefix.length, prefix) as string[];
  for (const name of names) f.db.exec(`DROP INDEX ${q(name)}`);
}

/**
 * Makes the file's table match `schema` (rows.ts `planSchema`): new columns added, changed types
 * converted, and with `dropMissing` columns not listed dropped with their data.
 */
export function applySchema(f: DataFile, meta: Meta, schema: SchemaEntry[], dropMissing: boolean): SchemaEntry[] {
  const plan = planSchema(readMetaSchema(meta.schema_json), schema, dropMissing, tableLimits.maxColumns);
  if (plan.convert.length > 0 || plan.drop.length > 0) dropKeyIndexes(f, meta.name);
  for (const [name, type] of plan.add)
    f.db.exec(`ALTER TABLE ${q(meta.name)} ADD COLUMN ${q(name)} ${sqliteType(type)}`);
  for (const c of plan.convert) convertColumn(f, meta.name, c.name, c.from, c.to);
  for (const name of plan.drop) f.db.exec(`ALTER TABLE ${q(meta.name)} DROP COLUMN ${q(name)}`);
  f.statements.clear();
  meta.schema_json = JSON.stringify(plan.next);
  return plan.next;
}

/** The name a table holds while two are swapped: `$` cannot occur in a customer table's name. */
export const SWAP_NAME = '_svc$swap';

/**
 * Exchanges the names of two tables' data in the file, inside the caller's transaction: the tables, their
 * figures rows and their `time` indexes (SQLite cannot rename an index, so both are built again).
 */
export function swapDataTables(f: DataFile, a: TableRow, b: TableRow): void {
  ensureDataTable(f, a);
  ensureDataTable(f, b);
  for (const name of [a.name, b.name]) f.db.exec(`DROP INDEX IF EXISTS ${q(`${name}$time`)}`);
  const rename = f.db.prepare(`UPDATE ${META_TABLE} SET name = ? WHERE name = ?`);
  for (const [from, to] of [
    [a.name, SWAP_NAME],
    [b.name, a.name],
    [SWAP_NAME, b.name],
  ] as const) {
    f.db.exec(`ALTER TABLE ${q(from)} RENAME TO ${q(to)}`);
    rename.run(to, from);
  }
  for (const name of [a.name, b.name]) f.db.exec(`CREATE INDEX ${q(`${name}$time`)} ON ${q(name)} (time)`);
  f.statements.clear();
}

/**
 * Copies a table with its columns, rows (in insertion order), index and figures from the file `source`
 * into `dest`'s file in one transaction of `dest`, replacing a leftover of the name there.
 */
export function copyDataTable(dest: DataFile, source: DataFile, name: string): void {
  dest.db.prepare('ATTACH DATABASE ? AS svc_source').run(source.file);
  try {
    dest.db.transaction(() => {
      dest.db.exec(`DROP TABLE IF EXISTS main.${q(name)}`);
      dest.db.prepare(`DELETE FROM main.${META_TABLE} WHERE name = ?`).run(name);
      const created = dest.db
        .prepare("SELECT sql FROM svc_source.sqlite_master WHERE type = 'table' AND name = ?")
        .get(name) as { sql: string } | undefined;
      if (!created) throw new Error(`The table "${name}" has no data to move.`);
      // The source's own CREATE text (kept current by every ALTER) names the columns and their types.
      dest.db.exec(created.sql);
      dest.db.exec(`INSERT INTO main.${q(name)} SELECT * FROM svc_source.${q(name)} ORDER BY rowid`);
      dest.db.exec(`CREATE INDEX main.${q(`${name}$time`)} ON ${q(name)} (time)`);
      dest.db.prepare(`INSERT INTO main.${META_TABLE} SELECT * FROM svc_source.${META_TABLE} WHERE name = ?`).run(name);
    })();
  } finally {
    dest.db.exec('DETACH DATABASE svc_source');
    dest.statements.clear();
  }
}
