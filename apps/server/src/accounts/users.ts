import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import type { Db } from '../platform/db';
import { ApiError, conflict, forbidden, notFound } from '../platform/errors';
import { hashPassword } from '../platform/secrets';

/** A row of `users`. `password_hash` never leaves this module's callers' process. */
export interface UserRow {
  id: number;
  account_id: number;
  name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  administrator: number;
  account_owner: number;
  password_hash: string | null;
  created_at: number;
  updated_at: number;
  /** Single sign-on mode and the identity provider's NameID for the user (sso/userSso.ts). */
  sso_mode: 'disabled' | 'enabled' | 'enforced';
  sso_identifier: string | null;
}

export interface AccountRow {
  id: number;
  name: string;
  created_at: number;
}

export function findAccount(db: Db, accountId: number): AccountRow {
  const row = db.prepare('SELECT id, name, created_at FROM accounts WHERE id = ?').get(accountId) as
    | AccountRow
    | undefined;
  if (!row) throw notFound('account');
  return row;
}

export function listUsers(db: Db, accountId: number): UserRow[] {
  return db.prepare('SELECT * FROM users WHERE account_id = ? ORDER BY id').all(accountId) as UserRow[];
}

/** The user with this id in the account, or 404 (a user of another account is not told apart). */
export function getUser(db: Db, accountId: number, userId: number): UserRow {
  const row = db.prepare('SELECT * FROM users WHERE id = ? AND account_id = ?').get(userId, accountId) as
    | UserRow
    | undefined;
  if (!row) throw notFound('user');
  return row;
}

/**
 * Resolves the user a /v3 path names. Real clients send the user's name (`td user:apikey:list <name>`) or
 * e-mail, so both are accepted, the name first. Only users of the caller's account are found.
 */
export function getUserByRef(db: Db, accountId: number, ref: string): UserRow {
  const byName = db.prepare('SELECT * FROM users WHERE account_id = ? AND name = ?').get(accountId, ref) as
    | UserRow
    | undefined;
  if (byName) return byName;
  const byEmail = db.prepare('SELECT * FROM users WHERE account_id = ? AND email = ?').get(accountId, ref) as
    | UserRow
    | undefined;
  if (!byEmail) throw notFound('user');
  return byEmail;
}

/** Sign-in looks a user up by e-mail alone: e-mail addresses are unique across accounts. */
export function findUserForLogin(db: Db, email: string): UserRow | null {
  return (db.prepare('SELECT * FROM users WHERE email = ?').get(email) as UserRow | undefined) ?? null;
}

export interface NewUser {
  name: string;
  email: string;
  password: string;
  administrator: boolean;
}

/** Adds a user to the caller's account (administrators only). Names are unique per account, e-mails globally. */
export async function addUser(deps: AppDeps, principal: Principal, input: NewUser): Promise<UserRow> {
  requireAdmin(principal);
  const { db } = deps;
  assertFree(db, principal.accountId, input);
  const passwordHash = await hashPassword(input.password);
  // Checked again after the (slow) hash: another request may have taken the name meanwhile.
  assertFree(db, principal.accountId, input);
  const now = deps.clock.now().getTime();
  const result = db
    .prepare(
      `INSERT INTO users (account_id, name, email, administrator, account_owner, password_hash, created_at, updated_at)
       VALUES (?, ?, ?, ?, 0, ?, ?, ?)`,
    )
    .run(principal.accountId, input.name, input.email, input.administrator ? 1 : 0, passwordHash, now, now);
  return getUser(db, principal.accountId, Number(result.lastInsertRowid));
}

function assertFree(db: Db, accountId: number, input: NewUser): void {
  if (db.prepare('SELECT 1 FROM users WHERE email = ?').get(input.email)) {
    throw conflict(`A user with the e-mail address ${input.email} already exists. Use another address.`);
  }
  if (db.prepare('SELECT 1 FROM users WHERE account_id = ? AND name = ?').get(accountId, input.name)) {
    throw conflict(`A user named "${input.name}" already exists in this account. Choose another name.`);
  }
}

/**
 * Removes a user of the caller's account (administrators only), with its keys and sessions. Nobody
 * removes themself or the account owner: the account would be left without its responsible person.
 */
export function removeUser(deps: AppDeps, principal: Principal, target: UserRow): void {
  requireAdmin(principal);
  if (target.account_id !== principal.accountId) throw notFound('user');
  if (target.id === principal.userId) {
    throw forbidden('You cannot remove yourself. Ask another administrator to do it.');
  }
  if (target.account_owner === 1) throw forbidden('The account owner cannot be removed.');
  try {
    deps.db.prepare('DELETE FROM users WHERE id = ? AND account_id = ?').run(target.id, principal.accountId);
  } catch (err) {
    // Rows of other features that point at the user without ON DELETE rules keep it in place.
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw new ApiError(
        409,
        'Conflict',
        `The user ${target.email} still owns objects of the account, so they cannot be removed yet.`,
      );
    }
    throw err;
  }
}

/** Sets a new password; the caller decides what happens to sessions (see session/password.ts). */
export async function setPassword(deps: AppDeps, user: UserRow, password: string): Promise<void> {
  const hash = await hashPassword(password);
  deps.db
    .prepare('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ? AND account_id = ?')
    .run(hash, deps.clock.now().getTime(), user.id, user.account_id);
}
