import type { SsoMode } from '@svc/contracts';
import type { UserRow } from '../accounts/users';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import type { Db } from '../platform/db';
import { conflict, notFound } from '../platform/errors';
import { revokeUserSessionsByMethod } from '../session/sessions';
import { recordAudit } from './audit';
import { actorName, findSetting } from './settings';

/**
 * Per-user SSO (spec: User SSO). Modes: disabled (password only), enabled (password or SSO), enforced
 * (SSO only). SSO sign-ins match a user by (account, identifier) only; the e-mail is never used to link.
 */

export function findUserByEmail(db: Db, accountId: number, email: string): UserRow {
  const row = db.prepare('SELECT * FROM users WHERE account_id = ? AND email = ?').get(accountId, email) as
    | UserRow
    | undefined;
  if (!row) throw notFound('user');
  return row;
}

function assertIdentifierFree(db: Db, accountId: number, identifier: string, exceptUserId: number | null): void {
  const other = db
    .prepare('SELECT id, email FROM users WHERE account_id = ? AND sso_identifier = ?')
    .get(accountId, identifier) as { id: number; email: string } | undefined;
  if (other && other.id !== exceptUserId) {
    throw conflict(`The SSO identifier "${identifier}" already belongs to ${other.email}. Each user needs their own.`);
  }
}

function assertSettingExists(db: Db, accountId: number, action: string): void {
  if (!findSetting(db, accountId)) {
    throw conflict(`Configure the account's SSO setting (PUT /v3/account/sso_setting) before you ${action}.`);
  }
}

type SignInState = Pick<UserRow, 'administrator' | 'password_hash' | 'sso_mode' | 'sso_identifier'>;

/**
 * Whether a user could sign in to the console. SSO counts only once a "Test SSO" round trip has passed
 * for the current setting: an untested identity provider is no way in (sso-security §1.4, lock-out guard).
 */
function canSignIn(u: SignInState, ssoProven: boolean): boolean {
  const byPassword = u.password_hash !== null && u.sso_mode !== 'enforced';
  const bySso = ssoProven && u.sso_mode !== 'disabled' && u.sso_identifier !== null;
  return byPassword || bySso;
}

/** Refuses (409) a change to an administrator that would leave the account with no administrator able to sign in. */
function assertAdminsRemain(db: Db, target: UserRow, after: SignInState): void {
  if (target.administrator !== 1) return;
  const ssoProven = (findSetting(db, target.account_id)?.tested_at ?? null) !== null;
  const admins = db
    .prepare('SELECT * FROM users WHERE account_id = ? AND administrator = 1')
    .all(target.account_id) as UserRow[];
  const anyLeft = admins.some((a) => canSignIn(a.id === target.id ? after : a, ssoProven));
  if (!anyLeft) {
    const why = ssoProven
      ? 'they would have neither a password nor SSO to sign in with'
      : 'SSO has not passed a "Test SSO" round trip yet, so it cannot be relied on';
    throw conflict(
      `This would leave no administrator able to sign in to the console: ${target.email} is the last one who can, and ${why}. Keep another administrator with password sign-in, or run Test SSO first.`,
    );
  }
}

function audit(
  deps: AppDeps,
  p: Principal,
  action: string,
  target: UserRow | string,
  details: Record<string, unknown>,
) {
  recordAudit(deps, {
    accountId: p.accountId,
    actorUserId: p.userId,
    actor: actorName(deps.db, p),
    action,
    target: typeof target === 'string' ? target : target.email,
    outcome: 'success',
    details,
  });
}

export interface SsoUserInput {
  firstName: string;
  email: string;
  identifier: string;
}

/** Creates a user who signs in with SSO only: no password, mode enforced, not an administrator. */
export function createUserWithSso(deps: AppDeps, p: Principal, input: SsoUserInput): UserRow {
  requireAdmin(p);
  const { db } = deps;
  assertSettingExists(db, p.accountId, 'create SSO users');
  if (db.prepare('SELECT 1 FROM users WHERE email = ?').get(input.email)) {
    throw conflict(
      `A user with the e-mail address ${input.email} already exists. Use enable_sso or enforce_sso for them.`,
    );
  }
  assertIdentifierFree(db, p.accountId, input.identifier, null);
  if (db.prepare('SELECT 1 FROM users WHERE account_id = ? AND name = ?').get(p.accountId, input.email)) {
    throw conflict(`A user named "${input.email}" already exists in this account.`);
  }
  const now = deps.clock.now().getTime();
  const result = db
    .prepare(
      `INSERT INTO users (account_id, name, email, first_name, administrator, account_owner, password_hash,
         created_at, updated_at, sso_mode, sso_identifier)
       VALUES (?, ?, ?, ?, 0, 0, NULL, ?, ?, 'enforced', ?)`,
    )
    .run(p.accountId, input.email, input.email, input.firstName, now, now, input.identifier);
  const user = db.prepare('SELECT * FROM users WHERE id = ?').get(Number(result.lastInsertRowid)) as UserRow;
  audit(deps, p, 'user.create_with_sso', user, { identifier: input.identifier, mode: 'enforced' });
  return user;
}

/**
 * Sets a user's mode. Enforcing ends their password sessions (password sign-in is refused from now on);
 * disabling ends their SSO sessions. Enabling ends nothing. API keys are untouched (docs/decisions).
 */
export function setUserSsoMode(
  deps: AppDeps,
  p: Principal,
  email: string,
  mode: SsoMode,
  identifierIn: string | undefined,
): UserRow {
  requireAdmin(p);
  const { db } = deps;
  const user = findUserByEmail(db, p.accountId, email);
  if (mode === 'enforced') assertSettingExists(db, p.accountId, 'enforce SSO');
  const identifier = identifierIn ?? user.sso_identifier;
  if (identifier !== null) assertIdentifierFree(db, p.accountId, identifier, user.id);
  assertAdminsRemain(db, user, { ...user, sso_mode: mode, sso_identifier: identifier });
  db.prepare('UPDATE users SET sso_mode = ?, sso_identifier = ?, updated_at = ? WHERE id = ? AND account_id = ?').run(
    mode,
    identifier,
    deps.clock.now().getTime(),
    user.id,
    p.accountId,
  );
  if (mode === 'enforced') revokeUserSessionsByMethod(deps, p.accountId, user.id, 'password');
  if (mode === 'disabled') revokeUserSessionsByMethod(deps, p.accountId, user.id, 'sso');
  const action = { enforced: 'user.enforce_sso', enabled: 'user.enable_sso', disabled: 'user.disable_sso' }[mode];
  audit(deps, p, action, user, { identifier, previous_mode: user.sso_mode, mode });
  return { ...user, sso_mode: mode, sso_identifier: identifier };
}

/** The user an SSO assertion names, in the account the request was made for; null if none. */
export function findUserByIdentifier(db: Db, accountId: number, identifier: string): UserRow | null {
  return (
    (db.prepare('SELECT * FROM users WHERE account_id = ? AND sso_identifier = ?').get(accountId, identifier) as
      | UserRow
      | undefined) ?? null
  );
}
