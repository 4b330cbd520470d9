import type { SsoMode } from '@svc/contracts';
import { type Executor, insertId, many, one, run, sql } from '../platform/storage';
import type { UserRow } from './users';

/**
 * The users' single sign-on columns, for the sso feature (through index.ts): it decides who may sign in how,
 * and this module, the owner of `users`, reads and writes the rows. Every query is scoped by account.
 */

/** The account's user with the address; null if none. */
export async function userByEmail(db: Executor, accountId: number, email: string): Promise<UserRow | null> {
  return (
    (await one<UserRow>(db, sql`SELECT * FROM users WHERE account_id = ${accountId} AND email = ${email}`)) ?? null
  );
}

/** The account's user an SSO identifier names (the first, should two share it); null if none. */
export async function userBySsoIdentifier(
  db: Executor,
  accountId: number,
  identifier: string,
): Promise<UserRow | null> {
  return (
    (await one<UserRow>(
      db,
      sql`SELECT * FROM users WHERE account_id = ${accountId} AND sso_identifier = ${identifier} ORDER BY id LIMIT 1`,
    )) ?? null
  );
}

/** Whether a user of the account has the name. */
export async function userNameTaken(db: Executor, accountId: number, name: string): Promise<boolean> {
  return (
    (await one(db, sql`SELECT 1 AS taken FROM users WHERE account_id = ${accountId} AND name = ${name}`)) !== undefined
  );
}

/** Adds a user who signs in with SSO only: no password, mode enforced, not an administrator. */
export async function insertSsoUser(
  db: Executor,
  accountId: number,
  input: { email: string; firstName: string; identifier: string; now: number },
): Promise<UserRow> {
  const id = await insertId(
    db,
    sql`INSERT INTO users (account_id, name, email, first_name, administrator, account_owner, password_hash,
          created_at, updated_at, sso_mode, sso_identifier)
        VALUES (${accountId}, ${input.email}, ${input.email}, ${input.firstName}, 0, 0, NULL, ${input.now},
          ${input.now}, 'enforced', ${input.identifier})
        RETURNING id`,
  );
  return (await one<UserRow>(db, sql`SELECT * FROM users WHERE id = ${id}`)) as UserRow;
}

/** Sets a user's SSO mode and identifier. */
export async function setSsoMode(
  tx: Executor,
  user: Pick<UserRow, 'id' | 'account_id'>,
  change: { mode: SsoMode; identifier: string | null; now: number },
): Promise<void> {
  await run(
    tx,
    sql`UPDATE users SET sso_mode = ${change.mode}, sso_identifier = ${change.identifier}, updated_at = ${change.now}
         WHERE id = ${user.id} AND account_id = ${user.account_id}`,
  );
}

/** Up to `limit` addresses of the account's users who sign in with SSO only. */
export async function ssoEnforcedEmails(db: Executor, accountId: number, limit: number): Promise<string[]> {
  const rows = await many<{ email: string }>(
    db,
    sql`SELECT email FROM users WHERE account_id = ${accountId} AND sso_mode = 'enforced' ORDER BY id LIMIT ${limit}`,
  );
  return rows.map((u) => u.email);
}

/** Whether the account exists. */
export async function accountExists(db: Executor, accountId: number): Promise<boolean> {
  return (await one(db, sql`SELECT 1 AS found FROM accounts WHERE id = ${accountId}`)) !== undefined;
}
