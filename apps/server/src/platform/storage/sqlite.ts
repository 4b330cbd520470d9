import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import { type Db, openSqlite } from '../db';
import type { Database } from './controlTables/index';
import type { BoundText, ColumnKind, SqlDialect, Storage } from './types';

/** `(?, …), …` for a batch's shape, kept: a bulk insert repeats the same few shapes. */
const placeholders = new Map<string, string>();

function insertValues(kinds: ReadonlyArray<ColumnKind>, rows: ReadonlyArray<ReadonlyArray<unknown>>): BoundText {
  const key = `${kinds.length}x${rows.length}`;
  let marks = placeholders.get(key);
  if (marks === undefined) {
    const tuple = `(${new Array(kinds.length).fill('?').join(', ')})`;
    marks = new Array(rows.length).fill(tuple).join(', ');
    if (placeholders.size < 32) placeholders.set(key, marks);
  }
  const parameters: unknown[] = [];
  for (const row of rows) for (const value of row) parameters.push(value);
  return { text: `VALUES ${marks}`, parameters };
}

/** SQLite's forms of what differs between the backends. */
export const sqliteDialect: SqlDialect = {
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  jsonArrayElements: (column, alias) => `json_each(${column}) AS ${alias}`,
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
  insertValues,
};

export interface SqliteStorage extends Storage {
  readonly backend: 'sqlite';
  /** The one better-sqlite3 connection underneath, for multi-statement scripts (migrations). */
  readonly handle: Db;
}

/**
 * Transactions begin IMMEDIATE: they take the database's write lock at once, waiting for it (busy_timeout)
 * while a worker thread writes. A deferred transaction that reads, awaits and then writes would instead fail
 * at once (SQLITE_BUSY_SNAPSHOT) when a worker's commit landed between its read and its write.
 */
class ImmediateDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateDriver(this.#config);
  }
}

/**
 * The embedded backend: Kysely over one better-sqlite3 connection (WAL). Kysely runs one query or
 * transaction at a time on it, so a transaction is never interleaved with another request's statements.
 */
export function sqliteStorage(handle: Db): SqliteStorage {
  const db = new Kysely<Database>({ dialect: new ImmediateDialect({ database: handle }) });
  return {
    backend: 'sqlite',
    db,
    dialect: sqliteDialect,
    handle,
    describe: handle.name,
    target: { backend: 'sqlite', file: handle.name },
    close: async () => {
      // Kysely's destroy closes the handle; a handle closed elsewhere first is fine.
      if (handle.open) await db.destroy();
    },
  };
}

export function openSqliteStorage(file: string): SqliteStorage {
  return sqliteStorage(openSqlite(file));
}
