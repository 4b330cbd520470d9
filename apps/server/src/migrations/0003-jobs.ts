import type { Migration } from '../platform/db';

/**
 * Jobs of every kind (query jobs, bulk import performs, bulk loads). One row per job; its life cycle is
 * `queued → running → success | error | killed` (wire-compat §1.6, §3). Times are Unix milliseconds.
 * `result_path` is relative to the data directory so the folder can move.
 */
export const jobs: Migration = {
  version: 3,
  name: 'jobs',
  up: `
    CREATE TABLE jobs (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      type TEXT NOT NULL,
      database_name TEXT,
      query TEXT,
      params_json TEXT,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'success', 'error', 'killed')),
      priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN -2 AND 2),
      retry_limit INTEGER NOT NULL DEFAULT 0,
      domain_key TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      start_at INTEGER,
      end_at INTEGER,
      cpu_time INTEGER,
      result_path TEXT,
      result_size INTEGER,
      num_records INTEGER,
      hive_result_schema TEXT,
      cmdout TEXT,
      stderr TEXT,
      UNIQUE (account_id, domain_key)
    );
    CREATE INDEX jobs_account ON jobs(account_id, id);
    CREATE INDEX jobs_queue ON jobs(status, priority DESC, id);
  `,
};
