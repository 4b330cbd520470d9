import type { Context } from 'hono';
import { findAccount, findUsersForLogin, getUser, type UserRow } from '../accounts';
import { auditAction, recordAudit } from '../audit';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { forbidden } from '../platform/errors';
import { transaction } from '../platform/storage';
import { changePassword, clientAddress, forgiveLoginAttempts, throttleResetRequest } from '../session';
import { deliver, linkUrl } from './delivery';
import { createLink, type LinkRow, linkGone, liveLink, revokeUserResets, useLink } from './links';

/**
 * Password reset by e-mail, on the invitations' one-time links (decision 0044). A request answers the same
 * whatever the address (decision 0028: no account discovery) and is throttled like a sign-in; the mail goes
 * out after the answer, so its time tells nothing either. An administrator can also make a user's reset
 * link to hand over (for servers without SMTP).
 */

const SSO_ONLY = 'This user signs in with single sign-on only: there is no password to reset.';

/** A new reset link for the user; older ones stop working. */
async function newResetLink(deps: AppDeps, user: UserRow, createdBy: string, base: string) {
  const { row, token } = await transaction(deps.storage, async (tx) => {
    await revokeUserResets(deps, tx, user.account_id, user.id);
    return createLink(deps, tx, {
      accountId: user.account_id,
      kind: 'password_reset',
      email: user.email,
      userId: user.id,
      createdBy,
    });
  });
  return { row, url: linkUrl(base, 'password_reset', token) };
}

/** Someone asks for a reset of an address: each user with it (one per account) is mailed a link. */
export async function requestReset(deps: AppDeps, c: Context, email: string, base: string): Promise<void> {
  const address = await throttleResetRequest(deps, c, email);
  if (!deps.config.smtp) return;
  const users = (await findUsersForLogin(deps.storage.db, email)).filter((u) => u.sso_mode !== 'enforced');
  const links: { row: LinkRow; url: string; user: UserRow }[] = [];
  for (const user of users) {
    const { row, url } = await newResetLink(deps, user, address, base);
    await recordAudit(deps, {
      accountId: user.account_id,
      actorUserId: null,
      actor: address,
      action: 'user.password_reset_link',
      target: user.email,
      outcome: 'success',
      reason: null,
      details: { link_id: row.id, requested_by: 'e-mail', address },
    });
    links.push({ row, url, user });
  }
  // Sent after the answer: how long the mail takes must not tell a known address from an unknown one.
  const send = async () => {
    for (const { row, url, user } of links) {
      await deliver(deps, row, url, (await findAccount(deps.storage.db, user.account_id)).name);
    }
  };
  void send().catch((err) => deps.logger.error('reset e-mails failed', { error: (err as Error).message }));
}

/** An administrator makes a reset link for a user of the account, to copy (and mailed with SMTP). */
export async function resetLinkFor(deps: AppDeps, p: Principal, userId: number, base: string) {
  requireAdmin(p);
  const user = await getUser(deps.storage.db, p.accountId, userId);
  if (user.sso_mode === 'enforced') throw forbidden(SSO_ONLY);
  const { row, url } = await newResetLink(deps, user, p.email, base);
  await auditAction(deps, p, 'user.password_reset_link', {
    target: user.email,
    details: { link_id: row.id, requested_by: 'administrator' },
  });
  const sent = await deliver(deps, row, url, (await findAccount(deps.storage.db, p.accountId)).name);
  return { link: url, expiresAt: new Date(row.expires_at).toISOString(), ...sent };
}

/**
 * Sets the new password a reset link allows: the link is used once, the user's sessions end (whoever knew
 * the old password is out), the sign-in throttle of the address is lifted, and the caller is signed in.
 */
export async function completeReset(deps: AppDeps, c: Context, token: string, password: string): Promise<UserRow> {
  const { db } = deps.storage;
  const row = await liveLink(deps, db, token, 'password_reset');
  const user = await getUser(db, row.account_id, row.user_id as number);
  if (user.sso_mode === 'enforced') throw forbidden(SSO_ONLY);
  if (!(await useLink(deps, db, row))) throw linkGone('password_reset');
  await changePassword(deps, user, password);
  await revokeUserResets(deps, db, user.account_id, user.id);
  const address = clientAddress(c, deps.config.trustedProxies);
  await forgiveLoginAttempts(deps, user.email, address);
  await recordAudit(deps, {
    accountId: user.account_id,
    actorUserId: user.id,
    actor: user.email,
    action: 'user.password_reset',
    target: user.email,
    outcome: 'success',
    reason: null,
    details: { link_id: row.id, address, other_sessions_ended: true },
  });
  return user;
}
