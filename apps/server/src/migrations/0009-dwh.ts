import type { Migration } from '../platform/db';

/**
 * Data-warehouse sync: whether the beta is on for an account, stored warehouse authentications (the
 * password only as AES-256-GCM ciphertext), integrations and the bulk load sessions they own (one per
 * table), and each run of an integration (an attempt) with the bulk load job of each table. Bulk load
 * sessions learn who created them (scheduled runs issue jobs as that user), which integration owns them,
 * and when their cron last fired. Times are Unix milliseconds.
 */
export const dwh: Migration = {
  version: 9,
  name: 'data-warehouse sync: feature, authentications, integrations, attempts; bulk load schedule',
  up: `
    CREATE TABLE dwh_features (
      account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
      enabled INTEGER NOT NULL DEFAULT 0,
      updated_at INTEGER NOT NULL
    );

    CREATE TABLE dwh_authentications (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      name TEXT NOT NULL,
      type TEXT NOT NULL DEFAULT 'postgresql' CHECK (type = 'postgresql'),
      host TEXT NOT NULL,
      port INTEGER NOT NULL,
      database_name TEXT NOT NULL,
      user_name TEXT NOT NULL,
      ssl_mode TEXT NOT NULL CHECK (ssl_mode IN ('disable', 'require', 'verify-full')),
      secret_enc TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, name)
    );

    CREATE TABLE dwh_integrations (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      name TEXT NOT NULL,
      schedule_type TEXT NOT NULL DEFAULT 'none',
      schedule_option TEXT,
      timezone TEXT NOT NULL DEFAULT 'UTC',
      cron TEXT,
      last_fired_at INTEGER,
      config_json TEXT NOT NULL,
      config_digest TEXT NOT NULL,
      config_updated_at INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, name)
    );

    CREATE TABLE dwh_attempts (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      integration_id INTEGER NOT NULL REFERENCES dwh_integrations(id) ON DELETE CASCADE,
      trigger TEXT NOT NULL CHECK (trigger IN ('manual', 'schedule')),
      jobs_json TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX dwh_attempts_integration ON dwh_attempts(integration_id, id);

    ALTER TABLE bulk_loads ADD COLUMN user_id INTEGER REFERENCES users(id) ON DELETE SET NULL;
    ALTER TABLE bulk_loads ADD COLUMN integration_id INTEGER REFERENCES dwh_integrations(id) ON DELETE CASCADE;
    ALTER TABLE bulk_loads ADD COLUMN last_fired_at INTEGER;
  `,
};
