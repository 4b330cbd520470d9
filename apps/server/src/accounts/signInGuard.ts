import { conflict, notFound } from '../platform/errors';
import type { Executor } from '../platform/storage';
import { lockAccountRow } from './columns';
import type { UserRow } from './users';

/**
 * The lock-out guard (sso-security §1.4): no change to a user may leave the account with no administrator
 * able to sign in to the console. SSO mode changes (sso/), role changes and removals (here) all ask it.
 */

export type SignInState = Pick<UserRow, 'administrator' | 'password_hash' | 'sso_mode' | 'sso_identifier'>;

/**
 * Whether the account's SSO has passed a "Test SSO" round trip for its current setting. The sso feature
 * answers it; app.ts hands its answer to the routes here (accounts does not import sso, which imports it).
 */
export type SsoProof = (db: Executor, accountId: number) => Promise<boolean>;

/** Whether a user could sign in: an untested identity provider is no way in. */
function canSignIn(u: SignInState, ssoProven: boolean): boolean {
  const byPassword = u.password_hash !== null && u.sso_mode !== 'enforced';
  const bySso = ssoProven && u.sso_mode !== 'disabled' && u.sso_identifier !== null;
  return byPassword || bySso;
}

/** Whole rows of `users`, their SSO mode narrowed as UserRow has it. */
const usersIn = (ex: Executor) => ex.selectFrom('users').selectAll().$narrowType<Pick<UserRow, 'sso_mode'>>();

/**
 * The user as they are now, with the account locked until the transaction ends: the guard's count and the
 * change it allows then happen in one transaction, never between another's. 404 when the user has gone.
 */
export async function lockedUser(tx: Executor, target: UserRow): Promise<UserRow> {
  if (!tx.isTransaction) throw new Error('lockedUser needs a transaction');
  // Changes that ask the guard run one at a time per account: two administrators demoting each other at once
  // would otherwise both count two administrators and leave none. `FOR UPDATE` on PostgreSQL (across nodes);
  // SQLite's transactions already run one at a time.
  await lockAccountRow(tx, target.account_id);
  const fresh = await usersIn(tx)
    .where('id', '=', target.id)
    .where('account_id', '=', target.account_id)
    .executeTakeFirst();
  if (!fresh) throw notFound('user');
  return fresh;
}

/**
 * Refuses (409) a change to an administrator that would leave the account with no administrator able to
 * sign in. `after` is the user as the change leaves them, or null when the user is removed.
 */
export async function assertAdminsRemain(
  db: Executor,
  target: UserRow,
  after: SignInState | null,
  ssoProven: boolean,
): Promise<void> {
  if (target.administrator !== 1) return;
  const admins = await usersIn(db)
    .where('account_id', '=', target.account_id)
    .where('administrator', '=', 1)
    .orderBy('id')
    .execute();
  const remaining = admins.map((a) => (a.id === target.id ? after : a)).filter((a) => a !== null);
  if (remaining.some((a) => a.administrator === 1 && canSignIn(a, ssoProven))) return;
  const why =
    after === null
      ? 'they would be removed'
      : after.administrator !== 1
        ? 'they would no longer be an administrator'
        : ssoProven
          ? 'they would have neither a password nor SSO to sign in with'
          : 'SSO has not passed a "Test SSO" round trip yet, so it cannot be relied on';
  const fix =
    after === null || after.administrator !== 1
      ? 'Make another user who can sign in an administrator first.'
      : 'Keep another administrator with password sign-in, or run Test SSO first.';
  throw conflict(
    `This would leave no administrator able to sign in to the console: ${target.email} is the last one who can, and ${why}. ${fix}`,
  );
}
