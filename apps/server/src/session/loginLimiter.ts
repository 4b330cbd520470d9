import type { UserRow } from '../accounts';
import { recordAudit } from '../audit';
import type { AppDeps } from '../platform/context';
import { limits } from '../platform/limits';
import type { Row } from '../platform/storage';

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

async function pairFailures(deps: AppDeps, email: string, address: string, now: number): Promise<number[]> {
  const rows = await deps.storage.db
    .selectFrom('login_failures')
    .select('at')
    .where('email', '=', email)
    .where('address', '=', address)
    .where('at', '>', now - limits.loginPairWindowMs)
    .orderBy('at')
    .execute();
  return rows.map((r) => Number(r.at));
}

/** The wait the (e-mail, address) pair's failures impose, in ms from now (0 when none). */
async function pairWaitMs(deps: AppDeps, email: string, address: string, now: number): Promise<number> {
  const failures = await pairFailures(deps, email, address, now);
  const over = failures.length - limits.loginAttempts;
  if (over < 0) return 0;
  const backoff = Math.min(limits.loginBackoffBaseMs * 2 ** over, limits.loginBackoffMaxMs);
  return Math.max(0, (failures[failures.length - 1] as number) + backoff - now);
}

async function addressWaitMs(deps: AppDeps, address: string, now: number): Promise<number> {
  const row = await deps.storage.db
    .selectFrom('login_failures')
    .select('at')
    .where('address', '=', address)
    .where('at', '>', now - limits.loginWindowMs)
    .orderBy('at', 'desc')
    .limit(1)
    .offset(limits.loginAddressAttempts - 1)
    .executeTakeFirst();
  return row ? Number(row.at) + limits.loginWindowMs - now : 0;
}

/** Seconds until another attempt is allowed for this e-mail and address, or null when one is allowed now. */
export async function loginRetryAfterSeconds(deps: AppDeps, email: string, address: string): Promise<number | null> {
  const now = deps.clock.now().getTime();
  const wait = Math.max(await pairWaitMs(deps, email, address, now), await addressWaitMs(deps, address, now));
  return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : null;
}

export async function recordLoginAttempt(deps: AppDeps, email: string, address: string): Promise<void> {
  const now = deps.clock.now().getTime();
  const db = deps.storage.db;
  await db
    .deleteFrom('login_failures')
    .where('at', '<=', now - Math.max(limits.loginWindowMs, limits.loginPairWindowMs))
    .execute();
  await db.insertInto('login_failures').values({ email, address, at: now }).execute();
}

/** A successful sign-in forgives the failures of that e-mail from that address. */
export async function forgiveLoginAttempts(deps: AppDeps, email: string, address: string): Promise<void> {
  await deps.storage.db
    .deleteFrom('login_failures')
    .where('email', '=', email)
    .where('address', '=', address)
    .execute();
}

/**
 * After a failed attempt: when the pair has just reached the backoff, each user the e-mail belongs to (one
 * per account) gets an audit entry and a console notice (the address and the count; never the passwords).
 */
export async function noteLoginFailure(
  deps: AppDeps,
  email: string,
  address: string,
  users: readonly UserRow[],
): Promise<void> {
  if (users.length === 0) return;
  const now = deps.clock.now().getTime();
  const failures = (await pairFailures(deps, email, address, now)).length;
  if (failures !== limits.loginAttempts) return;
  for (const user of users) await noteThrottled(deps, user, address, failures, now);
}

async function noteThrottled(deps: AppDeps, user: UserRow, address: string, failures: number, now: number) {
  await recordAudit(deps, {
    accountId: user.account_id,
    actorUserId: null,
    actor: address,
    action: 'user.login_throttled',
    target: user.email,
    outcome: 'failure',
    reason: 'too_many_failed_passwords',
    details: { address, failures },
  });
  await deps.storage.db
    .insertInto('login_notices')
    .values({ account_id: user.account_id, user_id: user.id, at: now, address, failures })
    .execute();
}

export type LoginNotice = Pick<Row<'login_notices'>, 'at' | 'address' | 'failures'>;

/**
 * The user's notices not yet shown, oldest first; they count as shown from now on. Each notice is taken by
 * one UPDATE … RETURNING, so two sign-ins at once (on two nodes) never both show it.
 */
export async function takeLoginNotices(deps: AppDeps, accountId: number, userId: number): Promise<LoginNotice[]> {
  const rows = await deps.storage.db
    .updateTable('login_notices')
    .set({ seen_at: deps.clock.now().getTime() })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('seen_at', 'is', null)
    .returning(['id', 'at', 'address', 'failures'])
    .execute();
  return rows
    .sort((a, b) => a.at - b.at || a.id - b.id)
    .map(({ at, address, failures }) => ({ at, address, failures }));
}

/** "Try again in 15 minutes." style wording for the 429 message. */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
