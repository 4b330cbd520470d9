import type { Context } from 'hono';
import { findAccount, findUsersForLogin, setPassword, type UserRow } from '../accounts';
import { recordAudit } from '../audit';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../platform/errors';
import { verifyPassword } from '../platform/secrets';
import {
  clientAddress,
  describeWait,
  forgiveLoginAttempts,
  loginRetryAfterSeconds,
  noteLoginFailure,
  recordLoginAttempt,
} from './loginLimiter';
import { revokeUserSessions } from './sessions';

/**
 * Everything that checks or changes a password, for the console (`/console-api/login`, `/me/password`) and
 * the clients' routes (`/v3/user/authenticate`, `/v3/user/password/change`) alike: one throttle, one answer
 * for a wrong password or an unknown e-mail, one refusal for users who sign in with SSO only.
 */

const WRONG_CREDENTIALS = 'The e-mail address or password is incorrect.';
const SSO_ONLY = 'Your account signs in with single sign-on only. Use "Sign in with SSO" instead.';

/** 429 with Retry-After while the (e-mail, address) pair or the address is throttled. */
async function checkThrottle(deps: AppDeps, c: Context, email: string, address: string): Promise<void> {
  const wait = await loginRetryAfterSeconds(deps, email, address);
  if (wait !== null) {
    c.header('Retry-After', String(wait));
    throw tooManyRequests(`Too many failed sign-in attempts. Try again in ${describeWait(wait)}.`, wait);
  }
}

/** A password sign-in, or its refusal with a reason code (`wrong_password`, `sso_enforced`), in the user's log. */
function signInAudit(
  deps: AppDeps,
  user: UserRow,
  via: SignInVia,
  address: string,
  refused: string | null,
): Promise<void> {
  return recordAudit(deps, {
    accountId: user.account_id,
    actorUserId: user.id,
    actor: user.email,
    action: 'user.sign_in',
    target: user.email,
    outcome: refused === null ? 'success' : 'failure',
    reason: refused,
    details: { method: 'password', via, address },
  });
}

/** Where a password sign-in came from: the console's form, or a client's `/v3/user/authenticate`. */
export type SignInVia = 'console' | 'api';

/**
 * The user an e-mail and password prove, or 401 (the same answer for an unknown e-mail and a wrong
 * password), 429 while throttled, 403 for a user who signs in with SSO only. An address may belong to
 * users of several accounts (decision 0028): the password is tried on each, or only on the user of
 * `accountId` when given; a password that opens several of them is 409 naming the accounts to choose from.
 */
export async function signInWithPassword(
  deps: AppDeps,
  c: Context,
  email: string,
  password: string,
  via: SignInVia,
  accountId?: number,
) {
  const address = clientAddress(c, deps.config.trustedProxies);
  await checkThrottle(deps, c, email, address);
  await recordLoginAttempt(deps, email, address);
  const candidates = await findUsersForLogin(deps.storage.db, email, accountId);
  // Every check runs at once, and an unknown e-mail still costs one, so the time does not tell whether,
  // or in how many accounts, the address exists.
  const checks = await Promise.all(
    candidates.length === 0
      ? [verifyPassword(password, null)]
      : candidates.map((u) => verifyPassword(password, u.password_hash)),
  );
  const proven = candidates.filter((_, i) => checks[i] === true);
  if (proven.length === 0) {
    // An e-mail of no user belongs to no account, so no account's log has a place for it.
    for (const user of candidates) await signInAudit(deps, user, via, address, 'wrong_password');
    await noteLoginFailure(deps, email, address, candidates);
    throw unauthorized(WRONG_CREDENTIALS);
  }
  await forgiveLoginAttempts(deps, email, address);
  // Told only after the password proved who is asking, so the answer reveals nothing to a guesser.
  if (proven.length > 1) throw await severalAccounts(deps, proven);
  const user = proven[0] as UserRow;
  if (user.sso_mode === 'enforced') {
    await signInAudit(deps, user, via, address, 'sso_enforced');
    throw forbidden(SSO_ONLY);
  }
  await signInAudit(deps, user, via, address, null);
  return user;
}

/** 409 naming the accounts a password opens, for the person who proved they hold it in each. */
async function severalAccounts(deps: AppDeps, users: readonly UserRow[]) {
  const names: string[] = [];
  for (const u of users)
    names.push(`"${(await findAccount(deps.storage.db, u.account_id)).name}" (ID ${u.account_id})`);
  return conflict(
    `This e-mail address and password open ${users.length} accounts: ${names.join(', ')}. Enter the ID of the account to sign in to.`,
  );
}

/**
 * Checks a signed-in user's current password before a change, under the same throttle as sign-in (a
 * stolen key or session must not become a way to guess the password). 400 when it is wrong.
 */
export async function checkCurrentPassword(deps: AppDeps, c: Context, user: UserRow, password: string): Promise<void> {
  const address = clientAddress(c, deps.config.trustedProxies);
  await checkThrottle(deps, c, user.email, address);
  await recordLoginAttempt(deps, user.email, address);
  if (!(await verifyPassword(password, user.password_hash))) {
    await noteLoginFailure(deps, user.email, address, [user]);
    throw badRequest('The current password is incorrect.');
  }
  await forgiveLoginAttempts(deps, user.email, address);
}

/**
 * A password reset request counts as a sign-in attempt from its address: the same throttle (429 while it
 * holds), so resets cannot be used to flood an inbox or to probe addresses faster than sign-in allows.
 * Returns the client address. A completed reset forgives the attempts (`forgiveLoginAttempts`).
 */
export async function throttleResetRequest(deps: AppDeps, c: Context, email: string): Promise<string> {
  const address = clientAddress(c, deps.config.trustedProxies);
  await checkThrottle(deps, c, email, address);
  await recordLoginAttempt(deps, email, address);
  return address;
}

/**
 * Sets a user's new password and signs out every console session of theirs: anyone signed in with the
 * old password is out. API keys stay (decision 0005). SSO-only users have no password to change.
 */
export async function changePassword(deps: AppDeps, user: UserRow, password: string): Promise<void> {
  if (user.sso_mode === 'enforced') throw forbidden(SSO_ONLY);
  await setPassword(deps, user, password);
  await revokeUserSessions(deps, user.account_id, user.id);
}
