import type { Migration } from '../platform/db';

/**
 * Failed console sign-ins, for the per-e-mail and per-address rate limit. Kept in the database so a
 * restart does not reset the limit. Rows come before any account is known, so they carry none.
 */
export const loginFailures: Migration = {
  version: 4,
  name: 'login failures for sign-in rate limiting',
  up: `
    CREATE TABLE login_failures (
      id INTEGER PRIMARY KEY,
      email TEXT NOT NULL COLLATE NOCASE,
      address TEXT NOT NULL,
      at INTEGER NOT NULL
    );
    CREATE INDEX login_failures_email ON login_failures(email, at);
    CREATE INDEX login_failures_address ON login_failures(address, at);
  `,
};
