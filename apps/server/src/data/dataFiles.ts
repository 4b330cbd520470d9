import { rmSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../platform/context';
import { type Db, openSqlite } from '../platform/db';
import type { DataTables } from '../platform/storage';
import { type DatabaseRow, databaseFile } from './catalog';

/**
 * Open connections to customer database files, one per file per app, so writes reuse prepared
 * statements. Each file also holds `_svc$tables`, the figures of its tables, written in the same
 * transaction as the rows; the catalog copies them after each commit, and again when the file is first
 * opened, so a crash between the two commits cannot leave the catalog wrong. `$` cannot appear in a
 * table name, so that table never collides with a customer's.
 */
export const META_TABLE = '"_svc$tables"';

export interface DataFile {
  db: Db;
  file: string;
  statements: Map<string, Database.Statement>;
  /** The Kysely instance on `db` that opens transactions (sqlitePlane.ts), made on first use. */
  kysely?: Kysely<DataTables>;
}

/** Open data files by file; the app's are built by the composition root (`deps.services.dataFiles`). */
export type OpenDataFiles = Map<string, DataFile>;

declare module '../platform/context' {
  interface Services {
    /** The app's (or worker thread's) open data files, by file (data/dataFiles.ts); closed on stop. */
    dataFiles: OpenDataFiles;
  }
  interface AppDeps {
    /** The open data files of deps no app was built from (a test's bare storage), kept on the deps themselves. */
    bareDataFiles?: OpenDataFiles;
  }
}

/** The app's open files; deps without services (no app) keep theirs on themselves until `closeDataFiles`. */
function filesOf(deps: AppDeps): OpenDataFiles {
  if (deps.services) return deps.services.dataFiles;
  deps.bareDataFiles ??= new Map();
  return deps.bareDataFiles;
}

/** A new connection to a database's file (created if missing) with its figures table; the caller closes it. */
function openDataFile(file: string): DataFile {
  const db = openSqlite(file);
  // An acknowledged record must survive a power cut, not only a process crash; group commit pays the sync.
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS ${META_TABLE} (
    name TEXT PRIMARY KEY,
    schema_json TEXT NOT NULL,
    row_count INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    max_time INTEGER,
    updated_at INTEGER
  )`);
  return { db, file, statements: new Map() };
}

/**
 * A connection of its own to a database's file, outside the cache: for a task of another lane that writes
 * the file once (a table moved in), so it never shares a connection, or its open transaction, with the
 * file's own lane. Close it with `f.db.close()`.
 */
export function privateDataFile(deps: AppDeps, database: DatabaseRow): DataFile {
  const f = openDataFile(databaseFile(deps.config.dataDir, database.account_id, database.id));
  // It waits for the lane's own writer rather than fail: nobody waits on this connection in turn.
  f.db.pragma('busy_timeout = 30000');
  return f;
}

/** The cached write connection to a database's file, created on first use. */
export function dataFile(deps: AppDeps, database: DatabaseRow, onFirstOpen?: (f: DataFile) => void): DataFile {
  const file = databaseFile(deps.config.dataDir, database.account_id, database.id);
  const files = filesOf(deps);
  let f = files.get(file);
  if (!f) {
    f = openDataFile(file);
    files.set(file, f);
    onFirstOpen?.(f);
  }
  return f;
}

/** A prepared statement cached on the connection, keyed by its SQL text. */
export function statement(f: DataFile, sql: string): Database.Statement {
  let s = f.statements.get(sql);
  if (!s) {
    s = f.db.prepare(sql);
    f.statements.set(sql, s);
  }
  return s;
}

/** Closes a database's connection (before its file is deleted). */
export function closeDataFile(deps: AppDeps, database: DatabaseRow): void {
  const file = databaseFile(deps.config.dataDir, database.account_id, database.id);
  const files = filesOf(deps);
  const f = files.get(file);
  if (f) {
    f.db.close();
    files.delete(file);
  }
}

/** Closes every data connection of an app: on shutdown, and after each test. */
export function closeDataFiles(deps: AppDeps): void {
  for (const files of [deps.services?.dataFiles, deps.bareDataFiles]) {
    for (const f of files?.values() ?? []) f.db.close();
    files?.clear();
  }
}

/** Closes and deletes a database's file with its WAL and shared-memory companions. */
export function deleteDataFile(deps: AppDeps, database: DatabaseRow): void {
  closeDataFile(deps, database);
  const file = databaseFile(deps.config.dataDir, database.account_id, database.id);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

/**
 * The worker lane of a database's file (platform/workerPool.ts): every write to the file goes through
 * it, so one worker at a time writes the file and the request loop never waits on its lock.
 */
export function dataLane(deps: Pick<AppDeps, 'config'>, database: Pick<DatabaseRow, 'account_id' | 'id'>): string {
  return databaseFile(deps.config.dataDir, database.account_id, database.id);
}
