import { join } from 'node:path';
import { newDataNameProblem } from '@svc/contracts';
import type Database from 'better-sqlite3';
import type { AppDeps } from '../platform/context';
import type { Db } from '../platform/db';
import { badRequest, conflict, notFound } from '../platform/errors';
import { limits } from '../platform/limits';
import type { SchemaEntry } from './columns';

/** A customer database as the control database records it. Times are Unix milliseconds. */
export interface DatabaseRow {
  id: number;
  account_id: number;
  name: string;
  delete_protected: number;
  created_at: number;
  updated_at: number;
}

/**
 * A table as the control database records it. `schema_json` is the wire `schema` string: a JSON array of
 * `[name, type]` (or `[name, type, alias]`) for every column but `time`. The figures are kept true on
 * every write to the table's data file.
 */
export interface TableRow {
  id: number;
  account_id: number;
  database_id: number;
  name: string;
  type: 'log';
  schema_json: string;
  count: number;
  estimated_storage_size: number;
  /** Largest `time` (Unix seconds) of any row, or null while the table is empty. */
  last_log_timestamp: number | null;
  /** When the figures last changed (Unix milliseconds). */
  counter_updated_at: number | null;
  expire_days: number | null;
  include_v: number;
  created_at: number;
  updated_at: number;
}

/** Database and table names: the identifier rule of the spec, which also makes them safe in SQL. */
export const NAME_RULE = limits.namePattern;

/** The file holding a database's tables: `<dataDir>/databases/<accountId>/<databaseId>.sqlite`. */
export function databaseFile(dataDir: string, accountId: number, databaseId: number): string {
  return join(dataDir, 'databases', String(accountId), `${databaseId}.sqlite`);
}

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/** Lookups on every ingestion request reuse their prepared statements. */
function cached(db: Db, sql: string): Database.Statement {
  let byDb = statements.get(db);
  if (!byDb) {
    byDb = new Map();
    statements.set(db, byDb);
  }
  let s = byDb.get(sql);
  if (!s) {
    s = db.prepare(sql);
    byDb.set(sql, s);
  }
  return s;
}

export function findDatabase(db: Db, accountId: number, name: string): DatabaseRow | null {
  const row = cached(db, 'SELECT * FROM databases WHERE account_id = ? AND name = ?').get(accountId, name) as
    | DatabaseRow
    | undefined;
  return row ?? null;
}

/** The account's database of that name; anything else (missing, another account's) is the spec's 404. */
export function requireDatabase(db: Db, accountId: number, name: string): DatabaseRow {
  const row = findDatabase(db, accountId, name);
  if (!row) throw notFound('database');
  return row;
}

export function listDatabases(db: Db, accountId: number): DatabaseRow[] {
  return db.prepare('SELECT * FROM databases WHERE account_id = ? ORDER BY name').all(accountId) as DatabaseRow[];
}

export function findTable(db: Db, accountId: number, databaseId: number, name: string): TableRow | null {
  const row = cached(db, 'SELECT * FROM tables WHERE account_id = ? AND database_id = ? AND name = ?').get(
    accountId,
    databaseId,
    name,
  ) as TableRow | undefined;
  return row ?? null;
}

export function requireTable(db: Db, accountId: number, databaseId: number, name: string): TableRow {
  const row = findTable(db, accountId, databaseId, name);
  if (!row) throw notFound('table');
  return row;
}

export function listTables(db: Db, accountId: number, databaseId: number): TableRow[] {
  return db
    .prepare('SELECT * FROM tables WHERE account_id = ? AND database_id = ? ORDER BY name')
    .all(accountId, databaseId) as TableRow[];
}

/** Inserts a table's catalog row (its data appears in the file on first write). Names are checked by callers. */
/** A new table's or database's name: the identifier rule, and none the storage engines reserve (400). */
export function checkNewName(name: string, what: 'database' | 'table'): void {
  const problem = newDataNameProblem(name, what);
  if (problem) throw badRequest(problem);
}

/** Before a write that creates its table on first use (postback, records API): a new name must be allowed. */
export function checkWritableTable(db: Db, database: DatabaseRow, name: string): void {
  if (findTable(db, database.account_id, database.id, name)) return;
  const problem = newDataNameProblem(name, 'table');
  if (problem) throw badRequest(`The table does not exist and cannot be created. ${problem}`);
}

export function createTableRow(deps: AppDeps, database: DatabaseRow, name: string, schema: SchemaEntry[]): TableRow {
  checkNewName(name, 'table');
  if (findTable(deps.db, database.account_id, database.id, name)) {
    throw conflict(`The table "${name}" already exists in the database "${database.name}".`);
  }
  const now = deps.clock.now().getTime();
  const result = deps.db
    .prepare(
      `INSERT INTO tables (account_id, database_id, name, type, schema_json, created_at, updated_at)
       VALUES (?, ?, ?, 'log', ?, ?, ?)`,
    )
    .run(database.account_id, database.id, name, JSON.stringify(schema), now, now);
  return deps.db.prepare('SELECT * FROM tables WHERE id = ?').get(result.lastInsertRowid) as TableRow;
}
