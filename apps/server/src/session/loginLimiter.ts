import type { UserRow } from '../accounts/users';
import type { AppDeps } from '../platform/context';
import { limits } from '../platform/limits';
import { recordAudit } from '../sso/audit';

export { clientAddress } from '../platform/clientAddress';

/**
 * Sign-in throttling that cannot be turned against a user (nothing is limited per e-mail alone):
 * - per (e-mail, address): `limits.loginAttempts` free failures, then a backoff that doubles with every
 *   further failure (`loginBackoffBaseMs`, at most `loginBackoffMaxMs`), counted over `loginPairWindowMs`;
 * - per address: at most `loginAddressAttempts` failures on any e-mails within `loginWindowMs`;
 * - so the right password from an address without failures always works.
 * An attempt is counted before the password is checked and forgiven on success, so parallel guesses
 * cannot slip past the limit while the (slow) hash runs. When a pair reaches the backoff, the owner of the
 * e-mail (if it is a user) gets an audit entry and a notice in the console.
 */

function pairFailures(deps: AppDeps, email: string, address: string, now: number): number[] {
  return (
    deps.db
      .prepare('SELECT at FROM login_failures WHERE email = ? AND address = ? AND at > ? ORDER BY at')
      .pluck()
      .all(email, address, now - limits.loginPairWindowMs) as number[]
  ).map(Number);
}

/** The wait the (e-mail, address) pair's failures impose, in ms from now (0 when none). */
function pairWaitMs(deps: AppDeps, email: string, address: string, now: number): number {
  const failures = pairFailures(deps, email, address, now);
  const over = failures.length - limits.loginAttempts;
  if (over < 0) return 0;
  const backoff = Math.min(limits.loginBackoffBaseMs * 2 ** over, limits.loginBackoffMaxMs);
  return Math.max(0, (failures[failures.length - 1] as number) + backoff - now);
}

function addressWaitMs(deps: AppDeps, address: string, now: number): number {
  const row = deps.db
    .prepare('SELECT at FROM login_failures WHERE address = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?')
    .get(address, now - limits.loginWindowMs, limits.loginAddressAttempts - 1) as { at: number } | undefined;
  return row ? row.at + limits.loginWindowMs - now : 0;
}

/** Seconds until another attempt is allowed for this e-mail and address, or null when one is allowed now. */
export function loginRetryAfterSeconds(deps: AppDeps, email: string, address: string): number | null {
  const now = deps.clock.now().getTime();
  const wait = Math.max(pairWaitMs(deps, email, address, now), addressWaitMs(deps, address, now));
  return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : null;
}

export function recordLoginAttempt(deps: AppDeps, email: string, address: string): void {
  const now = deps.clock.now().getTime();
  deps.db
    .prepare('DELETE FROM login_failures WHERE at <= ?')
    .run(now - Math.max(limits.loginWindowMs, limits.loginPairWindowMs));
  deps.db.prepare('INSERT INTO login_failures (email, address, at) VALUES (?, ?, ?)').run(email, address, now);
}

/** A successful sign-in forgives the failures of that e-mail from that address. */
export function forgiveLoginAttempts(deps: AppDeps, email: string, address: string): void {
  deps.db.prepare('DELETE FROM login_failures WHERE email = ? AND address = ?').run(email, address);
}

/**
 * After a failed attempt: when the pair has just reached the backoff, the user the e-mail belongs to gets
 * an audit entry and a console notice (the address and the count; never the passwords tried).
 */
export function noteLoginFailure(deps: AppDeps, email: string, address: string, user: UserRow | null): void {
  if (!user) return;
  const now = deps.clock.now().getTime();
  const failures = pairFailures(deps, email, address, now).length;
  if (failures !== limits.loginAttempts) return;
  recordAudit(deps, {
    accountId: user.account_id,
    actorUserId: null,
    actor: address,
    action: 'user.login_throttled',
    target: user.email,
    outcome: 'failure',
    reason: 'too_many_failed_passwords',
    details: { address, failures },
  });
  deps.db
    .prepare('INSERT INTO login_notices (account_id, user_id, at, address, failures) VALUES (?, ?, ?, ?, ?)')
    .run(user.account_id, user.id, now, address, failures);
}

export interface LoginNotice {
  at: number;
  address: string;
  failures: number;
}

/** The user's notices not yet shown, oldest first; they count as shown from now on. */
export function takeLoginNotices(deps: AppDeps, accountId: number, userId: number): LoginNotice[] {
  return deps.db.transaction(() => {
    const rows = deps.db
      .prepare(
        'SELECT id, at, address, failures FROM login_notices WHERE account_id = ? AND user_id = ? AND seen_at IS NULL ORDER BY at',
      )
      .all(accountId, userId) as (LoginNotice & { id: number })[];
    deps.db
      .prepare('UPDATE login_notices SET seen_at = ? WHERE account_id = ? AND user_id = ? AND seen_at IS NULL')
      .run(deps.clock.now().getTime(), accountId, userId);
    return rows.map(({ at, address, failures }) => ({ at, address, failures }));
  })();
}

/** "Try again in 15 minutes." style wording for the 429 message. */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
