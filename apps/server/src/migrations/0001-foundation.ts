import type { Migration } from '../platform/db';

export const foundation: Migration = {
  version: 1,
  name: 'accounts, users, api keys, console sessions',
  up: `
    CREATE TABLE accounts (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );

    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      email TEXT NOT NULL COLLATE NOCASE UNIQUE,
      first_name TEXT,
      last_name TEXT,
      administrator INTEGER NOT NULL DEFAULT 0,
      account_owner INTEGER NOT NULL DEFAULT 0,
      password_hash TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, name)
    );
    CREATE INDEX users_account ON users(account_id);

    CREATE TABLE api_keys (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type TEXT NOT NULL CHECK (type IN ('master', 'write-only')),
      secret_hash BLOB NOT NULL,
      hint TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER,
      revoked_at INTEGER
    );
    CREATE INDEX api_keys_user ON api_keys(account_id, user_id);

    CREATE TABLE console_sessions (
      id_hash BLOB PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      last_seen_at INTEGER NOT NULL,
      revoked_at INTEGER
    );
    CREATE INDEX console_sessions_user ON console_sessions(user_id);
  `,
};
