import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from '../migrations/index';
import { makeDir, touchFile } from './fileModes';
import { compilePattern } from './regexp';

export type Db = Database.Database;

/** Prepared statements kept per connection; past this many distinct SQL texts the cache starts over. */
const STATEMENT_CACHE = 1000;

/**
 * Makes `db.prepare` reuse the statement of an SQL text it prepared before: preparing costs more than
 * running most of the service's small statements, and the request path runs the same few on every call.
 * A reused statement comes back in its default modes (objects, numbers, all columns), so a caller that
 * set `raw()`, `pluck()` or `safeIntegers()` on it cannot change what the next caller gets.
 */
function cacheStatements(db: Db): void {
  const cache = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    let stmt = cache.get(sql);
    // A statement still being iterated cannot run again: such a caller gets one of its own.
    if (stmt?.busy) return prepare(sql);
    if (stmt) {
      if (stmt.reader) stmt.raw(false).pluck(false).expand(false);
      stmt.safeIntegers(false);
      return stmt;
    }
    stmt = prepare(sql);
    if (cache.size >= STATEMENT_CACHE) cache.clear();
    cache.set(sql, stmt);
    return stmt;
  }) as Db['prepare'];
}

/**
 * The functions the SQLite dialect's SQL uses (storage/sqlite.ts), on every connection: `svc_regexp(value,
 * pattern)` is 1 when the value as text matches the RE2 pattern (linear time, see regexp.ts), NULL for NULL.
 */
function addSqlFunctions(db: Db): void {
  db.function('svc_regexp', { deterministic: true }, (value: unknown, pattern: unknown) => {
    if (value === null || typeof pattern !== 'string') return null;
    return compilePattern(pattern).test(String(value)) ? 1 : 0;
  });
}

/** Opens (creating if needed) a SQLite file in WAL mode with the settings every connection uses. */
export function openSqlite(file: string, options: { readonly?: boolean } = {}): Db {
  if (!options.readonly) {
    makeDir(dirname(file));
    touchFile(file);
  }
  const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  cacheStatements(db);
  addSqlFunctions(db);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Checkpoint the log into the file every ~40 MB rather than SQLite's 4 MB: a journey run's thousands of short
    // transactions rewrite the same index pages, and each checkpoint syncs the file (the busy run of the 1 M-profile
    // journey bench: 41–47 s → 37–40 s). The log file is cut back to 64 MB after a larger burst.
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma('journal_size_limit = 67108864');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * One numbered step of the control database's schema, in both dialects: `sqlite` for the embedded store and
 * `postgres` for `SVC_DATABASE_URL` (empty when the step has nothing to do there). Both texts describe the same
 * tables, columns, keys and indexes; the PostgreSQL keys also carry `account_id` so the tables can be
 * distributed by account (ARCHITECTURE.md, "Distribution (Citus)").
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
  /**
   * The SQLite text rebuilds a table others refer to (create new, copy, drop old, rename: SQLite's way to
   * change a constraint). Its foreign keys are then off while it runs, or dropping the old table would
   * cascade into the tables that refer to it; every foreign key is checked before it commits.
   */
  sqliteRebuildsTables?: boolean;
}

/** Applies one migration's SQLite text with its record in `schema_migrations`, in one transaction. */
export function applySqliteMigration(db: Db, m: Migration): void {
  const rebuild = m.sqliteRebuildsTables === true;
  // PRAGMA foreign_keys is ignored inside a transaction, so it is switched around it.
  if (rebuild) db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      db.exec(m.sqlite);
      if (rebuild) {
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0) {
          throw new Error(`Migration ${m.version} (${m.name}) would leave ${broken.length} broken foreign keys.`);
        }
      }
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Date.now(),
      );
    })();
  } finally {
    if (rebuild) db.pragma('foreign_keys = ON');
  }
}

/**
 * Applies the numbered migrations not yet recorded in `schema_migrations`, each in its own transaction,
 * in order. Returns the versions it applied.
 */
export function migrate(db: Db, list: readonly Migration[] = migrations): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const done = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const applied: number[] = [];
  const sorted = [...list].sort((a, b) => a.version - b.version);
  for (const m of sorted) {
    if (done.has(m.version)) continue;
    applySqliteMigration(db, m);
    applied.push(m.version);
  }
  return applied;
}
