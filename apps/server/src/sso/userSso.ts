import type { SsoMode } from '@svc/contracts';
import type { UserRow } from '../accounts/users';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { conflict, notFound } from '../platform/errors';
import { type Executor, insertId, many, one, run, sql } from '../platform/storage';
import { revokeUserSessionsByMethod } from '../session/sessions';
import { recordAudit } from './audit';
import { actorName, findSetting } from './settings';

/**
 * Per-user SSO (spec: User SSO). Modes: disabled (password only), enabled (password or SSO), enforced
 * (SSO only). SSO sign-ins match a user by (account, identifier) only; the e-mail is never used to link.
 */

export async function findUserByEmail(db: Executor, accountId: number, email: string): Promise<UserRow> {
  const row = await one<UserRow>(db, sql`SELECT * FROM users WHERE account_id = ${accountId} AND email = ${email}`);
  if (!row) throw notFound('user');
  return row;
}

async function assertIdentifierFree(
  db: Executor,
  accountId: number,
  identifier: string,
  exceptUserId: number | null,
): Promise<void> {
  const other = await one<{ id: number; email: string }>(
    db,
    sql`SELECT id, email FROM users WHERE account_id = ${accountId} AND sso_identifier = ${identifier}
         ORDER BY id LIMIT 1`,
  );
  if (other && other.id !== exceptUserId) {
    throw conflict(`The SSO identifier "${identifier}" already belongs to ${other.email}. Each user needs their own.`);
  }
}

async function assertSettingExists(db: Executor, accountId: number, action: string): Promise<void> {
  if (!(await findSetting(db, accountId))) {
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
async function assertAdminsRemain(db: Executor, target: UserRow, after: SignInState): Promise<void> {
  if (target.administrator !== 1) return;
  const ssoProven = ((await findSetting(db, target.account_id))?.tested_at ?? null) !== null;
  const admins = await many<UserRow>(
    db,
    sql`SELECT * FROM users WHERE account_id = ${target.account_id} AND administrator = 1 ORDER BY id`,
  );
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

async function audit(
  deps: AppDeps,
  p: Principal,
  action: string,
  target: UserRow | string,
  details: Record<string, unknown>,
): Promise<void> {
  await recordAudit(deps, {
    accountId: p.accountId,
    actorUserId: p.userId,
    actor: await actorName(deps.storage.db, p),
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
export async function createUserWithSso(deps: AppDeps, p: Principal, input: SsoUserInput): Promise<UserRow> {
  requireAdmin(p);
  const { db } = deps.storage;
  await assertSettingExists(db, p.accountId, 'create SSO users');
  if (await one(db, sql`SELECT 1 AS taken FROM users WHERE email = ${input.email}`)) {
    throw conflict(
      `A user with the e-mail address ${input.email} already exists. Use enable_sso or enforce_sso for them.`,
    );
  }
  await assertIdentifierFree(db, p.accountId, input.identifier, null);
  if (await one(db, sql`SELECT 1 AS taken FROM users WHERE account_id = ${p.accountId} AND name = ${input.email}`)) {
    throw conflict(`A user named "${input.email}" already exists in this account.`);
  }
  const now = deps.clock.now().getTime();
  const id = await insertId(
    db,
    sql`INSERT INTO users (account_id, name, email, first_name, administrator, account_owner, password_hash,
          created_at, updated_at, sso_mode, sso_identifier)
        VALUES (${p.accountId}, ${input.email}, ${input.email}, ${input.firstName}, 0, 0, NULL, ${now}, ${now},
          'enforced', ${input.identifier})
        RETURNING id`,
  );
  const user = (await one<UserRow>(db, sql`SELECT * FROM users WHERE id = ${id}`)) as UserRow;
  await audit(deps, p, 'user.create_with_sso', user, { identifier: input.identifier, mode: 'enforced' });
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
  await assertAdminsRemain(db, user, { ...user, sso_mode: mode, sso_identifier: identifier });
  await run(
    db,
    sql`UPDATE users SET sso_mode = ${mode}, sso_identifier = ${identifier}, updated_at = ${deps.clock.now().getTime()}
         WHERE id = ${user.id} AND account_id = ${p.accountId}`,
  );
  if (mode === 'enforced') await revokeUserSessionsByMethod(deps, p.accountId, user.id, 'password');
  if (mode === 'disabled') await revokeUserSessionsByMethod(deps, p.accountId, user.id, 'sso');
  const action = { enforced: 'user.enforce_sso', enabled: 'user.enable_sso', disabled: 'user.disable_sso' }[mode];
  await audit(deps, p, action, user, { identifier, previous_mode: user.sso_mode, mode });
  return { ...user, sso_mode: mode, sso_identifier: identifier };
}

/** The user an SSO assertion names, in the account the request was made for; null if none. */
export async function findUserByIdentifier(
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
