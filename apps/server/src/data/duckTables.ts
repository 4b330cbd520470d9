import type { DuckDBConnection } from '@duckdb/node-api';
import type { TableRow } from './catalog';
import { readAs, readMetaSchema, readTableSchema, type SchemaEntry, storeAs } from './columns';
import { DuckRowAppender } from './duckAppend';
import { DUCK_META_TABLE } from './duckFiles';
import { duckRows } from './duckKysely';
import type { Meta } from './plane';
import { planSchema } from './rows';

/**
 * The DuckDB DDL of customer tables in their database's file (decision 0031): creating a table from its catalog
 * row, changing its columns, swapping two tables' names. A table's columns are always `time` then the schema's
 * columns in schema order, so appenders write rows in that order. Adding columns is an ALTER; any other change
 * (a conversion, a drop, a new order, or an addition after rows of the table were deleted in the same
 * transaction, which DuckDB cannot commit after an ALTER) builds the table again in one INSERT … SELECT, the
 * converted values joined in by row id, in the same transaction.
 */

export const dq = (id: string) => `"${id}"`;

/** What one data transaction has done that later DDL in it must know. */
export interface DuckTxState {
  conn: DuckDBConnection;
  /** Tables rows were deleted from in this transaction: their columns change by rebuilding only. */
  deletedFrom: Set<string>;
  /** Figures read with the transaction's BEGIN, each taken once by `ensureDuckTable` (duckPlane.ts). */
  known: Map<string, Meta>;
  /** Figures saved but not yet written: written with the next statement or with the COMMIT (duckPlane.ts). */
  pending: Map<string, Meta>;
}

/** A value as a DuckDB SQL literal: strings quoted, numbers as they print; null where none can say it exactly. */
function duckLiteral(v: unknown): string | null {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'string') return v.includes('\u0000') ? null : `'${v.replaceAll("'", "''")}'`;
  return null;
}

/**
 * The statement saving a table's figures, its values written in (so it can run in one call with other statements);
 * null when a value cannot be (the caller then binds them, `saveDuckMeta`).
 */
export function duckMetaUpdate(meta: Meta): string | null {
  const values = [meta.schema_json, meta.row_count, meta.bytes, meta.max_time, meta.updated_at, meta.name].map(
    duckLiteral,
  );
  if (values.includes(null)) return null;
  const [schema, rows, bytes, maxTime, updatedAt, name] = values;
  return `UPDATE ${DUCK_META_TABLE} SET schema_json = ${schema}, row_count = ${rows}, bytes = ${bytes}, max_time = ${maxTime}, updated_at = ${updatedAt} WHERE name = ${name}`;
}

/** The statement reading the figures of the named tables, in one call with the transaction's BEGIN. */
export function duckMetaSelect(names: readonly string[]): string | null {
  const quoted = names.map(duckLiteral);
  if (quoted.length === 0 || quoted.includes(null)) return null;
  return `SELECT * FROM ${DUCK_META_TABLE} WHERE name IN (${quoted.join(', ')})`;
}

/** The DuckDB type of a schema type (today's value rules: booleans 0/1, arrays and maps as JSON text). */
export function duckType(type: string): 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'BLOB' {
  switch (type) {
    case 'int':
    case 'long':
    case 'boolean':
      return 'BIGINT';
    case 'double':
    case 'float':
      return 'DOUBLE';
    case 'binary':
      return 'BLOB';
    default:
      return 'VARCHAR';
  }
}

export async function readDuckMeta(conn: DuckDBConnection, name: string): Promise<Meta | null> {
  const [meta] = await duckRows<Meta>(conn, `SELECT * FROM ${DUCK_META_TABLE} WHERE name = $1`, [name]);
  return meta ?? null;
}

export async function saveDuckMeta(conn: DuckDBConnection, meta: Meta): Promise<void> {
  await duckRows(
    conn,
    `UPDATE ${DUCK_META_TABLE} SET schema_json = $1, row_count = $2, bytes = $3, max_time = $4, updated_at = $5 WHERE name = $6`,
    [meta.schema_json, meta.row_count, meta.bytes, meta.max_time, meta.updated_at, meta.name],
  );
}

const columnsDdl = (schema: SchemaEntry[]) =>
  ['time BIGINT NOT NULL', ...schema.map(([name, type]) => `${dq(name)} ${duckType(type)}`)].join(', ');

/**
 * Creates the table's data from its catalog row, dropping a leftover of an earlier table. The figures come from
 * `known` where the transaction read them with its BEGIN (taken once: the caller holds them from then on).
 */
export async function ensureDuckTable(
  conn: DuckDBConnection,
  table: TableRow,
  known?: Map<string, Meta>,
): Promise<Meta> {
  const read = known?.get(table.name);
  if (read) {
    known?.delete(table.name);
    return read;
  }
  const existing = await readDuckMeta(conn, table.name);
  if (existing) return existing;
  const schema = readTableSchema(table.schema_json);
  await conn.run(`DROP TABLE IF EXISTS ${dq(table.name)}`);
  await conn.run(`CREATE TABLE ${dq(table.name)} (${columnsDdl(schema)})`);
  await duckRows(
    conn,
    `INSERT INTO ${DUCK_META_TABLE} (name, schema_json, row_count, bytes, max_time, updated_at) VALUES ($1, $2, 0, 0, NULL, NULL)`,
    [table.name, table.schema_json],
  );
  return { name: table.name, schema_json: table.schema_json, row_count: 0, bytes: 0, max_time: null, updated_at: null };
}

/** Rows converted per page while a column changes type. */
const CONVERT_PAGE = 50_000;

/**
 * The values of a column converted the way writes convert them (`storeAs` of what a reader sees), keyed by row
 * id, into a helper table of this transaction.
 */
async function convertedValues(
  conn: DuckDBConnection,
  table: string,
  helper: string,
  c: { name: string; from: string; to: string },
): Promise<void> {
  await conn.run(`CREATE TABLE ${dq(helper)} (rid BIGINT NOT NULL, v ${duckType(c.to)})`);
  const out = await DuckRowAppender.open(conn, helper, ['long', c.to]);
  let after = -1;
  for (;;) {
    const page = await duckRows<{ id: number; v: unknown }>(
      conn,
      `SELECT rowid AS id, ${dq(c.name)} AS v FROM ${dq(table)} WHERE rowid > $1 AND ${dq(c.name)} IS NOT NULL ORDER BY rowid LIMIT ${CONVERT_PAGE}`,
      [after],
    );
    for (const row of page) out.add([row.id, storeAs(c.to, readAs(c.from, row.v))]);
    if (page.length < CONVERT_PAGE) break;
    after = (page[page.length - 1] as { id: number }).id;
  }
  out.end();
}

/** Builds the table again with the `next` columns: kept ones copied, converted ones joined in, new ones empty. */
async function rebuild(
  conn: DuckDBConnection,
  table: string,
  current: SchemaEntry[],
  next: SchemaEntry[],
  convert: { name: string; from: string; to: string }[],
): Promise<void> {
  const had = new Set(current.map(([name]) => name));
  const joined = new Map<string, string>();
  for (const [i, c] of convert.entries()) {
    const helper = `_svc$convert${i}`;
    await convertedValues(conn, table, helper, c);
    joined.set(c.name, helper);
  }
  const select = ['t.time'];
  for (const [name, type] of next) {
    const helper = joined.get(name);
    if (helper) select.push(`${dq(helper)}.v`);
    else if (had.has(name)) select.push(`t.${dq(name)}`);
    else select.push(`NULL::${duckType(type)}`);
  }
  const joins = [...joined.values()].map((h) => ` LEFT JOIN ${dq(h)} ON ${dq(h)}.rid = t.rowid`).join('');
  const temp = '_svc$rebuild';
  await conn.run(`DROP TABLE IF EXISTS ${dq(temp)}`);
  await conn.run(`CREATE TABLE ${dq(temp)} (${columnsDdl(next)})`);
  await conn.run(`INSERT INTO ${dq(temp)} SELECT ${select.join(', ')} FROM ${dq(table)} t${joins} ORDER BY t.rowid`);
  await conn.run(`DROP TABLE ${dq(table)}`);
  await conn.run(`ALTER TABLE ${dq(temp)} RENAME TO ${dq(table)}`);
  for (const helper of joined.values()) await conn.run(`DROP TABLE ${dq(helper)}`);
}

/**
 * Makes the table match `schema` (rows.ts `planSchema`): new columns added, changed types converted, and with
 * `dropMissing` columns not listed dropped with their data. Updates `meta.schema_json` (the caller saves it).
 */
export async function applyDuckSchema(
  tx: DuckTxState,
  meta: Meta,
  schema: SchemaEntry[],
  dropMissing: boolean,
  maxColumns: number,
): Promise<SchemaEntry[]> {
  const current = readMetaSchema(meta.schema_json);
  const plan = planSchema(current, schema, dropMissing, maxColumns);
  const order = (s: SchemaEntry[]) => s.map(([name]) => name).join('\u0000');
  const appendOnly =
    plan.convert.length === 0 &&
    plan.drop.length === 0 &&
    order(plan.next) === order([...current, ...plan.add]) &&
    !tx.deletedFrom.has(meta.name);
  if (appendOnly) {
    for (const [name, type] of plan.add)
      await tx.conn.run(`ALTER TABLE ${dq(meta.name)} ADD COLUMN ${dq(name)} ${duckType(type)}`);
  } else if (plan.add.length + plan.convert.length + plan.drop.length > 0 || order(plan.next) !== order(current)) {
    await rebuild(tx.conn, meta.name, current, plan.next, plan.convert);
  }
  meta.schema_json = JSON.stringify(plan.next);
  return plan.next;
}

/** The name a table holds while two are swapped: `$` cannot occur in a customer table's name. */
const SWAP_NAME = '_svc$swap';

/** Exchanges the names of two tables' data and figures, inside the caller's transaction. */
export async function swapDuckTables(conn: DuckDBConnection, a: TableRow, b: TableRow): Promise<void> {
  await ensureDuckTable(conn, a);
  await ensureDuckTable(conn, b);
  for (const [from, to] of [
    [a.name, SWAP_NAME],
    [b.name, a.name],
    [SWAP_NAME, b.name],
  ] as const) {
    await conn.run(`ALTER TABLE ${dq(from)} RENAME TO ${dq(to)}`);
    await duckRows(conn, `UPDATE ${DUCK_META_TABLE} SET name = $1 WHERE name = $2`, [to, from]);
  }
}

/** Drops a table's rows and figures, inside the caller's transaction. */
export async function dropDuckTable(conn: DuckDBConnection, name: string): Promise<void> {
  await conn.run(`DROP TABLE IF EXISTS ${dq(name)}`);
  await duckRows(conn, `DELETE FROM ${DUCK_META_TABLE} WHERE name = $1`, [name]);
}
