import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from '../migrations/index';

export type Db = Database.Database;

/** Opens (creating if needed) a SQLite file in WAL mode with the settings every connection uses. */
export function openSqlite(file: string, options: { readonly?: boolean } = {}): Db {
  if (!options.readonly) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

export interface Migration {
  version: number;
  name: string;
  up: string;
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
    db.transaction(() => {
      db.exec(m.up);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Date.now(),
      );
    })();
    applied.push(m.version);
  }
  return applied;
}

/** Opens the control database and brings it to the newest schema. */
export function openControlDb(file: string): Db {
  const db = openSqlite(file);
  migrate(db);
  return db;
}
