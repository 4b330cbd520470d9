import type { Migration } from '../platform/db';

/**
 * E-mail addresses are unique per account, not across accounts (decision 0028): an administrator adding a
 * user whose address is used in another account gets the answer of a new address, so accounts cannot be
 * discovered through it. Sign-in by e-mail then tries the password on each account's user with that address.
 *
 * SQLite cannot drop a column's UNIQUE, so `users` is rebuilt with its foreign keys off (the runner does
 * that for `sqliteRebuildsTables` and checks every foreign key before it commits), keeping every id.
 * PostgreSQL swaps the constraint; the new key includes `account_id`, so Citus can enforce it on each shard.
 */
export const emailsPerAccount: Migration = {
  version: 24,
  name: 'e-mail addresses unique per account',
  sqliteRebuildsTables: true,
  sqlite: `
    CREATE TABLE users_new (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      email TEXT NOT NULL COLLATE NOCASE,
      first_name TEXT,
      last_name TEXT,
      administrator INTEGER NOT NULL DEFAULT 0,
      account_owner INTEGER NOT NULL DEFAULT 0,
      password_hash TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      sso_mode TEXT NOT NULL DEFAULT 'disabled' CHECK (sso_mode IN ('disabled', 'enabled', 'enforced')),
      sso_identifier TEXT,
      UNIQUE (account_id, name),
      UNIQUE (account_id, email)
    );
    INSERT INTO users_new (id, account_id, name, email, first_name, last_name, administrator, account_owner,
        password_hash, created_at, updated_at, sso_mode, sso_identifier)
      SELECT id, account_id, name, email, first_name, last_name, administrator, account_owner,
        password_hash, created_at, updated_at, sso_mode, sso_identifier
      FROM users;
    DROP TABLE users;
    ALTER TABLE users_new RENAME TO users;
    CREATE INDEX users_account ON users(account_id);
    CREATE UNIQUE INDEX users_sso_identifier ON users(account_id, sso_identifier) WHERE sso_identifier IS NOT NULL;
    CREATE INDEX users_email ON users(email);
  `,
  postgres: `
    ALTER TABLE users DROP CONSTRAINT users_email_key;
    ALTER TABLE users ADD CONSTRAINT users_account_id_email_key UNIQUE (account_id, email);
    CREATE INDEX users_email ON users(email);
  `,
};
