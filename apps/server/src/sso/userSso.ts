import type { SsoMode } from '@svc/contracts';
import {
  assertAdminsRemain,
  emailTaken,
  insertSsoUser,
  lockedUser,
  setSsoMode,
  type UserRow,
  userByEmail,
  userBySsoIdentifier,
  userNameTaken,
} from '../accounts';
import { auditAction } from '../audit';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { conflict, notFound } from '../platform/errors';
import { type Executor, transaction } from '../platform/storage';
import { revokeUserSessionsByMethod } from '../session';
import { findSetting } from './settings';

/**
 * Per-user SSO (spec: User SSO). Modes: disabled (password only), enabled (password or SSO), enforced
 * (SSO only). SSO sign-ins match a user by (account, identifier) only; the e-mail is never used to link.
 */

async function findUserByEmail(db: Executor, accountId: number, email: string): Promise<UserRow> {
  const row = await userByEmail(db, accountId, email);
  if (!row) throw notFound('user');
  return row;
}

async function assertIdentifierFree(
  db: Executor,
  accountId: number,
  identifier: string,
  exceptUserId: number | null,
): Promise<void> {
  const other = await userBySsoIdentifier(db, accountId, identifier);
  if (other && other.id !== exceptUserId) {
    throw conflict(`The SSO identifier "${identifier}" already belongs to ${other.email}. Each user needs their own.`);
  }
}

async function assertSettingExists(db: Executor, accountId: number, action: string): Promise<void> {
  if (!(await findSetting(db, accountId))) {
    throw conflict(`Configure the account's SSO setting (PUT /v3/account/sso_setting) before you ${action}.`);
  }
}

/**
 * Whether the account's SSO counts as a way in: only once a "Test SSO" round trip has passed for the
 * current setting (sso-security §1.4). The lock-out guard (accounts/signInGuard.ts) asks it.
 */
export async function ssoProven(db: Executor, accountId: number): Promise<boolean> {
  return ((await findSetting(db, accountId))?.tested_at ?? null) !== null;
}

export interface SsoUserInput {
  firstName: string;
  email: string;
  identifier: string;
}

/** Creates a user who signs in with SSO only: no password, mode enforced, not an administrator. */
export async function createUserWithSso(deps: AppDeps, p: Principal, input: SsoUserInput): Promise<UserRow> {
  requireAdmin(p);
  const { db } = deps.storage;
  await assertSettingExists(db, p.accountId, 'create SSO users');
  // Addresses are unique per account (decision 0028): one used in another account is free here.
  if (await emailTaken(db, p.accountId, input.email)) {
    throw conflict(
      `A user with the e-mail address ${input.email} already exists in this account. Use enable_sso or enforce_sso for them.`,
    );
  }
  await assertIdentifierFree(db, p.accountId, input.identifier, null);
  if (await userNameTaken(db, p.accountId, input.email)) {
    throw conflict(`A user named "${input.email}" already exists in this account.`);
  }
  const now = deps.clock.now().getTime();
  const user = await insertSsoUser(db, p.accountId, { ...input, now });
  await auditAction(deps, p, 'user.create_with_sso', {
    target: user.email,
    details: { identifier: input.identifier, mode: 'enforced' },
  });
  return user;
}

/**
 * Sets a user's mode. Enforcing ends their password sessions (password sign-in is refused from now on);
 * disabling ends their SSO sessions. Enabling ends nothing. API keys are untouched (docs/decisions).
 */
export async function setUserSsoMode(
  deps: AppDeps,
  p: Principal,
  email: string,
  mode: SsoMode,
  identifierIn: string | undefined,
): Promise<UserRow> {
  requireAdmin(p);
  const { db } = deps.storage;
  const user = await findUserByEmail(db, p.accountId, email);
  if (mode === 'enforced') await assertSettingExists(db, p.accountId, 'enforce SSO');
  const identifier = identifierIn ?? user.sso_identifier;
  if (identifier !== null) await assertIdentifierFree(db, p.accountId, identifier, user.id);
  const action = ({ enforced: 'user.enforce_sso', enabled: 'user.enable_sso', disabled: 'user.disable_sso' } as const)[
    mode
  ];
  // The guard's count and the change in one transaction under the account's lock (accounts/signInGuard.ts).
  const changed = await transaction(deps.storage, async (tx) => {
    const current = await lockedUser(tx, user);
    const after = { ...current, sso_mode: mode, sso_identifier: identifier };
    await assertAdminsRemain(tx, current, after, await ssoProven(tx, p.accountId));
    await setSsoMode(tx, user, { mode, identifier, now: deps.clock.now().getTime() });
    const details = { identifier, previous_mode: current.sso_mode, mode };
    await auditAction(deps, p, action, { target: user.email, details }, tx);
    return after;
  });
  if (mode === 'enforced') await revokeUserSessionsByMethod(deps, p.accountId, user.id, 'password');
  if (mode === 'disabled') await revokeUserSessionsByMethod(deps, p.accountId, user.id, 'sso');
  return changed;
}

/** The user an SSO assertion names, in the account the request was made for; null if none. */
export async function findUserByIdentifier(
  db: Executor,
  accountId: number,
  identifier: string,
): Promise<UserRow | null> {
  return userBySsoIdentifier(db, accountId, identifier);
}
