import type { Migration } from '../platform/db';

/**
 * Bulk load session ids are never reused: the table is rebuilt with AUTOINCREMENT, and the sequence starts
 * past every id a session or a bulk load job ever named, so a new session never inherits a deleted one's
 * job history (`GET /v3/bulk_loads/:name/jobs` finds jobs by session id). No table refers to bulk_loads.
 */
export const bulkLoadIds: Migration = {
  version: 15,
  name: 'bulk load session ids are never reused',
  sqlite: `
    CREATE TABLE bulk_loads_new (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
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
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      integration_id INTEGER REFERENCES dwh_integrations(id) ON DELETE CASCADE,
      last_fired_at INTEGER,
      UNIQUE (account_id, name)
    );
    INSERT INTO bulk_loads_new (id, account_id, name, database_name, table_name, cron, timezone, delay, start_at,
        time_column, config_json, config_diff_json, created_at, updated_at, user_id, integration_id, last_fired_at)
      SELECT id, account_id, name, database_name, table_name, cron, timezone, delay, start_at,
        time_column, config_json, config_diff_json, created_at, updated_at, user_id, integration_id, last_fired_at
      FROM bulk_loads;
    DROP TABLE bulk_loads;
    ALTER TABLE bulk_loads_new RENAME TO bulk_loads;
    DELETE FROM sqlite_sequence WHERE name IN ('bulk_loads', 'bulk_loads_new');
    INSERT INTO sqlite_sequence (name, seq)
      SELECT 'bulk_loads', MAX(
        COALESCE((SELECT MAX(id) FROM bulk_loads), 0),
        COALESCE((SELECT MAX(CAST(json_extract(params_json, '$.bulk_load_id') AS INTEGER)) FROM jobs
                  WHERE type = 'bulkload'), 0)
      );
  `,
  // An identity never hands out an id twice; it only has to start past the ids jobs named.
  postgres: `
    SELECT setval(pg_get_serial_sequence('bulk_loads', 'id'), GREATEST(m, 1), m >= 1)
    FROM (SELECT GREATEST(
      COALESCE((SELECT MAX(id) FROM bulk_loads), 0),
      COALESCE((SELECT MAX(((params_json::jsonb) ->> 'bulk_load_id')::bigint) FROM jobs WHERE type = 'bulkload'), 0)
    ) AS m) AS highest;
  `,
};
