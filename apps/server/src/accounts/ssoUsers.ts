import type { SsoMode } from '@svc/contracts';
import { type Executor, one, sql } from '../platform/storage';
import type { UserRow } from './users';

/**
 * The users' single sign-on columns, for the sso feature (through index.ts): it decides who may sign in how,
 * and this module, the owner of `users`, reads and writes the rows. Every query is scoped by account.
 */

/** Whole rows of `users`, their SSO mode narrowed as UserRow has it. */
const usersIn = (ex: Executor) => ex.selectFrom('users').selectAll().$narrowType<Pick<UserRow, 'sso_mode'>>();

/** The account's user with the address; null if none. */
export async function userByEmail(db: Executor, accountId: number, email: string): Promise<UserRow | null> {
  return (await usersIn(db).where('account_id', '=', accountId).where('email', '=', email).executeTakeFirst()) ?? null;
}

/** The account's user an SSO identifier names (the first, should two share it); null if none. */
export async function userBySsoIdentifier(
  db: Executor,
  accountId: number,
  identifier: string,
): Promise<UserRow | null> {
  const row = await usersIn(db)
    .where('account_id', '=', accountId)
    .where('sso_identifier', '=', identifier)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
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
  const { id } = await db
    .insertInto('users')
    .values({
      account_id: accountId,
      name: input.email,
      email: input.email,
      first_name: input.firstName,
      administrator: 0,
      account_owner: 0,
      password_hash: null,
      created_at: input.now,
      updated_at: input.now,
      sso_mode: 'enforced',
      sso_identifier: input.identifier,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await usersIn(db).where('id', '=', Number(id)).executeTakeFirst()) as UserRow;
}

/** Sets a user's SSO mode and identifier. */
export async function setSsoMode(
  tx: Executor,
  user: Pick<UserRow, 'id' | 'account_id'>,
  change: { mode: SsoMode; identifier: string | null; now: number },
): Promise<void> {
  await tx
    .updateTable('users')
    .set({ sso_mode: change.mode, sso_identifier: change.identifier, updated_at: change.now })
    .where('id', '=', user.id)
    .where('account_id', '=', user.account_id)
    .execute();
}

/** Up to `limit` addresses of the account's users who sign in with SSO only. */
export async function ssoEnforcedEmails(db: Executor, accountId: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('account_id', '=', accountId)
    .where('sso_mode', '=', 'enforced')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((u) => u.email);
}

/** Whether the account exists. */
export async function accountExists(db: Executor, accountId: number): Promise<boolean> {
  return (await one(db, sql`SELECT 1 AS found FROM accounts WHERE id = ${accountId}`)) !== undefined;
}
