import type { Migration } from '../platform/db';

/**
 * Bulk import sessions and their parts, result connections and bulk load sessions. Times are Unix
 * milliseconds. Part and staging files live under the data directory; `dir` and `file` are relative to
 * it so the folder can move. Database and table are kept by name, as the wire shows them, so a session
 * outlives a deleted table and its commit then answers 404.
 */
export const bulk: Migration = {
  version: 5,
  name: 'bulk import sessions and parts, result connections, bulk loads',
  up: `
    CREATE TABLE bulk_import_sessions (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      name TEXT NOT NULL,
      database_name TEXT NOT NULL,
      table_name TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'uploading'
        CHECK (status IN ('uploading', 'performing', 'ready', 'committing', 'committed')),
      upload_frozen INTEGER NOT NULL DEFAULT 0,
      job_id INTEGER,
      valid_parts INTEGER,
      error_parts INTEGER,
      valid_records INTEGER,
      error_records INTEGER,
      dir TEXT NOT NULL,
      perform_token TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, name)
    );
    CREATE INDEX bulk_import_sessions_status ON bulk_import_sessions(status);

    CREATE TABLE bulk_import_parts (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      session_id INTEGER NOT NULL REFERENCES bulk_import_sessions(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      file TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      records INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (session_id, name)
    );

    CREATE TABLE result_connections (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      url TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, name)
    );

    CREATE TABLE bulk_loads (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      database_name TEXT NOT NULL,
      table_name TEXT NOT NULL,
      cron TEXT,
      timezone TEXT NOT NULL DEFAULT 'UTC',
      delay INTEGER NOT NULL DEFAULT 0,
      start_at INTEGER,
      time_column TEXT,
      config_json TEXT NOT NULL,
      config_diff_json TEXT NOT NULL DEFAULT '{}',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, name)
    );
  `,
};
