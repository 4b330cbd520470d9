import type { Migration } from '../platform/db';

/**
 * The catalog of customer databases and tables. The rows themselves live in one SQLite file per
 * database (data/tableStore.ts); these rows keep the figures the /v3 objects show.
 */
export const dataCatalog: Migration = {
  version: 2,
  name: 'data catalog: databases and tables',
  up: `
    CREATE TABLE databases (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      delete_protected INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, name)
    );

    CREATE TABLE tables (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      database_id INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      type TEXT NOT NULL DEFAULT 'log' CHECK (type = 'log'),
      schema_json TEXT NOT NULL DEFAULT '[]',
      count INTEGER NOT NULL DEFAULT 0,
      estimated_storage_size INTEGER NOT NULL DEFAULT 0,
      last_log_timestamp INTEGER,
      counter_updated_at INTEGER,
      expire_days INTEGER,
      include_v INTEGER NOT NULL DEFAULT 1,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (database_id, name)
    );
    CREATE INDEX tables_account ON tables(account_id, database_id);
  `,
};
