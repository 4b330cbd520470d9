import { Kysely, SqliteDialect, sql } from 'kysely';
import { type Db, openSqlite } from '../db';
import type { SqlDialect, Storage } from './types';

/** SQLite's forms of what differs between the backends. */
export const sqliteDialect: SqlDialect = {
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  groupConcat: (expr, separator) => `group_concat(${expr}, '${separator.replace(/'/g, "''")}')`,
  syncIdentity: () => null,
  forUpdate: '',
  forUpdateSkipLocked: '',
  ident: (name) => `"${name}"`,
  position: (haystack, needle) => sql`instr(${haystack}, ${needle})`,
  regexpMatch: (value, pattern) => sql`svc_regexp(${value}, ${pattern})`,
  listValues: (values) => sql`SELECT value FROM json_each(${JSON.stringify(values)})`,
  binaryOrder: (expr) => expr,
  // SQLite takes the other columns of a MAX() aggregate from the row holding the maximum.
  newestPerKey: ({ key, values, time, from, where }) =>
    `SELECT k${values.map((_, i) => `, v${i}`).join('')} FROM (
       SELECT ${key} AS k${values.map((v, i) => `, ${v} AS v${i}`).join('')}, MAX(${time})
       FROM ${from} WHERE ${where} GROUP BY 1)`,
};

export interface SqliteStorage extends Storage {
  readonly backend: 'sqlite';
  /** The one better-sqlite3 connection underneath, for multi-statement scripts (migrations). */
  readonly handle: Db;
}

/**
 * The embedded backend: Kysely over one better-sqlite3 connection (WAL). Kysely runs one query or
 * transaction at a time on it, so a transaction is never interleaved with another request's statements.
 */
export function sqliteStorage(handle: Db): SqliteStorage {
  const db = new Kysely({ dialect: new SqliteDialect({ database: handle }) });
  return {
    backend: 'sqlite',
    db,
    dialect: sqliteDialect,
    handle,
    describe: handle.name,
    close: async () => {
      // Kysely's destroy closes the handle; a handle closed elsewhere first is fine.
      if (handle.open) await db.destroy();
    },
  };
}

export function openSqliteStorage(file: string): SqliteStorage {
  return sqliteStorage(openSqlite(file));
}
