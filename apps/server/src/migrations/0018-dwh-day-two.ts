import type { Migration } from '../platform/db';

/**
 * Warehouse sync, day two (issue 21): authentications take the SSL mode `prefer` (libpq's default: TLS
 * when the server offers it, else without); an integration can be paused (`paused_at`, null while it runs
 * on its schedule); a bulk load session can be asked to load from scratch at its next run
 * (`resync_requested_at`, cleared by the run that did it); and a run says whether it was such a re-sync.
 * SQLite cannot change a CHECK in place, so `dwh_authentications` is rebuilt (no table refers to it).
 */
export const dwhDayTwo: Migration = {
  version: 18,
  name: 'warehouse sync: ssl mode prefer, paused integrations, re-sync from scratch',
  sqlite: `
    CREATE TABLE dwh_authentications_new (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      name TEXT NOT NULL,
      type TEXT NOT NULL DEFAULT 'postgresql' CHECK (type = 'postgresql'),
      host TEXT NOT NULL,
      port INTEGER NOT NULL,
      database_name TEXT NOT NULL,
      user_name TEXT NOT NULL,
      ssl_mode TEXT NOT NULL CHECK (ssl_mode IN ('disable', 'prefer', 'require', 'verify-full')),
      secret_enc TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, name)
    );
    INSERT INTO dwh_authentications_new (id, account_id, user_id, name, type, host, port, database_name, user_name,
        ssl_mode, secret_enc, created_at, updated_at)
      SELECT id, account_id, user_id, name, type, host, port, database_name, user_name,
        ssl_mode, secret_enc, created_at, updated_at
      FROM dwh_authentications;
    DROP TABLE dwh_authentications;
    ALTER TABLE dwh_authentications_new RENAME TO dwh_authentications;

    ALTER TABLE dwh_integrations ADD COLUMN paused_at INTEGER;
    ALTER TABLE bulk_loads ADD COLUMN resync_requested_at INTEGER;
    ALTER TABLE dwh_attempts ADD COLUMN resync INTEGER NOT NULL DEFAULT 0;
  `,
  postgres: `
    ALTER TABLE dwh_authentications DROP CONSTRAINT dwh_authentications_ssl_mode_check;
    ALTER TABLE dwh_authentications ADD CONSTRAINT dwh_authentications_ssl_mode_check
      CHECK (ssl_mode IN ('disable', 'prefer', 'require', 'verify-full'));

    ALTER TABLE dwh_integrations ADD COLUMN paused_at BIGINT;
    ALTER TABLE bulk_loads ADD COLUMN resync_requested_at BIGINT;
    ALTER TABLE dwh_attempts ADD COLUMN resync BIGINT NOT NULL DEFAULT 0;
  `,
};
