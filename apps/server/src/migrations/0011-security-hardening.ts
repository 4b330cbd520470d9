import type { Migration } from '../platform/db';

/**
 * Security hardening (issue 22):
 * - a console session remembers whether its user was an administrator when it began; a session whose
 *   user's privilege has changed since is no longer valid (rotation on privilege change);
 * - sign-in failures are looked up per (e-mail, address) for the growing backoff;
 * - sign-in notices: a line for the owner of an e-mail whose password was guessed at, shown in the console.
 */
export const securityHardening: Migration = {
  version: 11,
  name: 'session privilege, per e-mail and address sign-in failures, sign-in notices',
  up: `
    ALTER TABLE console_sessions ADD COLUMN administrator INTEGER;
    UPDATE console_sessions SET administrator = (SELECT u.administrator FROM users u WHERE u.id = user_id);
    CREATE INDEX login_failures_pair ON login_failures(email, address, at);
    CREATE TABLE login_notices (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      at INTEGER NOT NULL,
      address TEXT NOT NULL,
      failures INTEGER NOT NULL,
      seen_at INTEGER
    );
    CREATE INDEX login_notices_user ON login_notices(user_id, at);
  `,
};
