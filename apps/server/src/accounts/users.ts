import { auditAction } from '../audit';
import { forgetVerifiedKeys } from '../platform/apiKeys';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { ApiError, conflict, forbidden, notFound } from '../platform/errors';
import { hashPassword } from '../platform/secrets';
import {
  type Executor,
  isForeignKeyViolation,
  isUniqueViolation,
  one,
  type Row,
  sql,
  transaction,
} from '../platform/storage';
import { assertAdminsRemain, lockedUser, type SsoProof } from './signInGuard';

/** Single sign-on mode of a user (sso/userSso.ts); `users.sso_mode` holds no other. */
type SsoMode = 'disabled' | 'enabled' | 'enforced';
type Moded = { sso_mode: SsoMode };

/**
 * A row of `users` (platform/storage/controlTables/accounts.ts). `password_hash` never leaves this module's
 * callers' process; `sso_identifier` is the identity provider's NameID for the user.
 */
export type UserRow = Omit<Row<'users'>, 'sso_mode'> & Moded;

export type AccountRow = Pick<Row<'accounts'>, 'id' | 'name' | 'created_at'>;

/** Every column of `users`, as UserRow. */
const users = (db: Executor) => db.selectFrom('users').selectAll().$narrowType<Moded>();

export async function findAccount(db: Executor, accountId: number): Promise<AccountRow> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'name', 'created_at'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw notFound('account');
  return row;
}

export function listUsers(db: Executor, accountId: number): Promise<UserRow[]> {
  return users(db).where('account_id', '=', accountId).orderBy('id').execute();
}

/** The user with this id in the account, or 404 (a user of another account is not told apart). */
export async function getUser(db: Executor, accountId: number, userId: number): Promise<UserRow> {
  const row = await users(db).where('id', '=', userId).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw notFound('user');
  return row;
}

/**
 * Resolves the user a /v3 path names. Real clients send the user's name (`td user:apikey:list <name>`) or
 * e-mail, so both are accepted, the name first. Only users of the caller's account are found.
 */
export async function getUserByRef(db: Executor, accountId: number, ref: string): Promise<UserRow> {
  const inAccount = users(db).where('account_id', '=', accountId);
  const byName = await inAccount.where('name', '=', ref).executeTakeFirst();
  if (byName) return byName;
  const byEmail = await inAccount.where('email', '=', ref).executeTakeFirst();
  if (!byEmail) throw notFound('user');
  return byEmail;
}

/** At most this many accounts' users are tried for one e-mail at sign-in (each costs a password check). */
const MAX_SIGN_IN_ACCOUNTS = 10;

/**
 * The users a password sign-in with this e-mail may be for: one per account that has the address
 * (addresses are unique per account, decision 0028), or only the named account's. Oldest accounts first.
 */
export function findUsersForLogin(db: Executor, email: string, accountId?: number): Promise<UserRow[]> {
  let found = users(db).where('email', '=', email);
  if (accountId !== undefined) found = found.where('account_id', '=', accountId);
  return found.orderBy('account_id').limit(MAX_SIGN_IN_ACCOUNTS).execute();
}

export interface NewUser {
  name: string;
  email: string;
  password: string;
  administrator: boolean;
}

/**
 * Adds a user to the caller's account (administrators only). Names and e-mail addresses are unique per
 * account: an address used in another account is free here, so the answer never tells accounts apart.
 */
export async function addUser(deps: AppDeps, principal: Principal, input: NewUser): Promise<UserRow> {
  requireAdmin(principal);
  const { db } = deps.storage;
  await assertFree(db, principal.accountId, input);
  const passwordHash = await hashPassword(input.password);
  // Checked again after the (slow) hash: another request may have taken the name meanwhile.
  await assertFree(db, principal.accountId, input);
  const now = deps.clock.now().getTime();
  let id: number;
  try {
    id = await transaction(deps.storage, async (tx) => {
      const inserted = await tx
        .insertInto('users')
        .values({
          account_id: principal.accountId,
          name: input.name,
          email: input.email,
          administrator: input.administrator ? 1 : 0,
          account_owner: 0,
          password_hash: passwordHash,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const newId = Number(inserted.id);
      const details = { user_id: newId, name: input.name, role: roleOf(input.administrator) };
      await auditAction(deps, principal, 'user.create', { target: input.email, details }, tx);
      return newId;
    });
  } catch (err) {
    // Another request (perhaps on another node) took the e-mail or name in this account meanwhile.
    if (isUniqueViolation(err)) await assertFree(db, principal.accountId, input);
    throw err;
  }
  return getUser(db, principal.accountId, id);
}

/** Whether a user of the account has the address (any case). */
export async function emailTaken(db: Executor, accountId: number, email: string): Promise<boolean> {
  return (
    (await one(db, sql`SELECT 1 AS taken FROM users WHERE account_id = ${accountId} AND email = ${email}`)) !==
    undefined
  );
}

const emailConflict = (email: string) =>
  conflict(`A user with the e-mail address ${email} already exists in this account. Use another address.`);

const nameTaken = (name: string) =>
  conflict(`A user named "${name}" already exists in this account. Choose another name.`);

async function assertFree(db: Executor, accountId: number, input: NewUser): Promise<void> {
  if (await emailTaken(db, accountId, input.email)) throw emailConflict(input.email);
  if (await one(db, sql`SELECT 1 AS taken FROM users WHERE account_id = ${accountId} AND name = ${input.name}`)) {
    throw nameTaken(input.name);
  }
}

const roleOf = (administrator: boolean | number) =>
  administrator === true || administrator === 1 ? 'administrator' : 'member';

/**
 * Removes a user of the caller's account (administrators only), with its keys and sessions. Nobody
 * removes themself or the account owner: the account would be left without its responsible person; nor
 * the last administrator able to sign in (the lock-out guard).
 */
export async function removeUser(
  deps: AppDeps,
  principal: Principal,
  target: UserRow,
  ssoProven: SsoProof,
): Promise<void> {
  requireAdmin(principal);
  if (target.account_id !== principal.accountId) throw notFound('user');
  if (target.id === principal.userId) {
    throw forbidden('You cannot remove yourself. Ask another administrator to do it.');
  }
  if (target.account_owner === 1) throw forbidden('The account owner cannot be removed.');
  try {
    await transaction(deps.storage, async (tx) => {
      const now = await lockedUser(tx, target);
      await assertAdminsRemain(tx, now, null, await ssoProven(tx, principal.accountId));
      await tx.deleteFrom('users').where('id', '=', target.id).where('account_id', '=', principal.accountId).execute();
      const details = { user_id: target.id, name: target.name, role: roleOf(target.administrator) };
      await auditAction(deps, principal, 'user.remove', { target: target.email, details }, tx);
    });
  } catch (err) {
    // Rows of other features that point at the user without ON DELETE rules keep it in place.
    if (isForeignKeyViolation(err)) {
      throw new ApiError(
        409,
        'Conflict',
        `The user ${target.email} still owns objects of the account, so they cannot be removed yet.`,
      );
    }
    throw err;
  }
  // Their keys stop working on this node at once (on others within VERIFIED_KEY_MS).
  forgetVerifiedKeys(deps);
}

export interface UserChange {
  name?: string | undefined;
  administrator?: boolean | undefined;
}

/**
 * An administrator renames a user or changes their role (administrator or member). Names stay unique in
 * the account; a role change passes the lock-out guard. Each kind of change is one audit entry
 * (`user.update` for the name, `user.role_change` for the role), written with the change. Returns the user
 * as changed and whether the role changed (the caller then ends or rotates the user's sessions).
 */
export async function updateUser(
  deps: AppDeps,
  principal: Principal,
  target: UserRow,
  change: UserChange,
  ssoProven: SsoProof,
): Promise<{ user: UserRow; roleChanged: boolean }> {
  requireAdmin(principal);
  const { db } = deps.storage;
  if (target.account_id !== principal.accountId) throw notFound('user');
  const name = change.name ?? target.name;
  const administrator = change.administrator === undefined ? target.administrator : change.administrator ? 1 : 0;
  const renamed = name !== target.name;
  const roleChanged = administrator !== target.administrator;
  if (!renamed && !roleChanged) return { user: target, roleChanged: false };
  if (
    renamed &&
    (await one(db, sql`SELECT 1 AS taken FROM users WHERE account_id = ${target.account_id} AND name = ${name}`))
  ) {
    throw nameTaken(name);
  }
  const now = deps.clock.now().getTime();
  try {
    await transaction(deps.storage, async (tx) => {
      if (roleChanged) {
        const current = await lockedUser(tx, target);
        await assertAdminsRemain(tx, current, { ...current, administrator }, await ssoProven(tx, principal.accountId));
      }
      await tx
        .updateTable('users')
        .set({ name, administrator, updated_at: now })
        .where('id', '=', target.id)
        .where('account_id', '=', target.account_id)
        .execute();
      const who = { target: target.email };
      if (renamed) {
        await auditAction(
          deps,
          principal,
          'user.update',
          { ...who, details: { user_id: target.id, name: { from: target.name, to: name } } },
          tx,
        );
      }
      if (roleChanged) {
        const details = { user_id: target.id, from: roleOf(target.administrator), to: roleOf(administrator) };
        await auditAction(deps, principal, 'user.role_change', { ...who, details }, tx);
      }
    });
  } catch (err) {
    // Another request took the name between the check and the update.
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
  // Keys act with the user's role: this node sees the change at once (others within VERIFIED_KEY_MS).
  if (roleChanged) forgetVerifiedKeys(deps);
  return { user: await getUser(db, target.account_id, target.id), roleChanged };
}

/** Sets a new password; the caller decides what happens to sessions (see session/routes.ts). */
export async function setPassword(deps: AppDeps, user: UserRow, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await deps.storage.db
    .updateTable('users')
    .set({ password_hash: hash, updated_at: deps.clock.now().getTime() })
    .where('id', '=', user.id)
    .where('account_id', '=', user.account_id)
    .execute();
}

/**
 * Gives a user another e-mail address (the sign-in name). Addresses are unique per account, so only a
 * user of the same account can have taken it.
 */
export async function changeEmail(deps: AppDeps, user: UserRow, email: string): Promise<UserRow> {
  const { db } = deps.storage;
  const taken = () => emailConflict(email);
  const other = await db
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', user.account_id)
    .where('email', '=', email)
    .executeTakeFirst();
  if (other && Number(other.id) !== user.id) throw taken();
  try {
    await db
      .updateTable('users')
      .set({ email, updated_at: deps.clock.now().getTime() })
      .where('id', '=', user.id)
      .where('account_id', '=', user.account_id)
      .execute();
  } catch (err) {
    // Another request (perhaps on another node) took the address between the check and the write.
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
  // Keys carry the user's e-mail (the audit log's actor): this node sees the change at once.
  forgetVerifiedKeys(deps);
  return getUser(db, user.account_id, user.id);
}

export interface InvitedUser {
  accountId: number;
  name: string;
  email: string;
  administrator: boolean;
  /** A password's hash, or null for a user who signs in with SSO only (identified by their address). */
  passwordHash: string | null;
}

/**
 * Adds the user an invitation names (invitations feature, decision 0044), inside the caller's transaction:
 * the same uniqueness rules as an administrator's `addUser`. A user joining with SSO gets no password, SSO
 * enforced, and their address as the identifier the identity provider asserts.
 */
export async function addInvitedUser(deps: AppDeps, tx: Executor, input: InvitedUser): Promise<UserRow> {
  await assertFree(tx, input.accountId, { ...input, password: '' });
  const sso = input.passwordHash === null;
  if (
    sso &&
    (await one(
      tx,
      sql`SELECT 1 AS taken FROM users WHERE account_id = ${input.accountId} AND sso_identifier = ${input.email}`,
    ))
  ) {
    throw conflict(`Another user of this account already signs in with SSO as ${input.email}. Ask an administrator.`);
  }
  const now = deps.clock.now().getTime();
  let id: number;
  try {
    const inserted = await tx
      .insertInto('users')
      .values({
        account_id: input.accountId,
        name: input.name,
        email: input.email,
        administrator: input.administrator ? 1 : 0,
        account_owner: 0,
        password_hash: input.passwordHash,
        created_at: now,
        updated_at: now,
        sso_mode: sso ? 'enforced' : 'disabled',
        sso_identifier: sso ? input.email : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = Number(inserted.id);
  } catch (err) {
    if (isUniqueViolation(err)) await assertFree(deps.storage.db, input.accountId, { ...input, password: '' });
    throw err;
  }
  return getUser(tx, input.accountId, id);
}
