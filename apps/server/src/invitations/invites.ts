import type { CreatedInvitation, Invitation } from '@svc/contracts';
import { addInvitedUser, emailTaken, findAccount, type UserRow } from '../accounts';
import { auditAction, recordAudit } from '../audit';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { conflict, notFound } from '../platform/errors';
import { hashPassword } from '../platform/secrets';
import { transaction } from '../platform/storage';
import { findSetting } from '../sso';
import { deliver, linkUrl } from './delivery';
import {
  createLink,
  getLink,
  type LinkRow,
  linkGone,
  liveLink,
  MAX_OPEN_INVITATIONS,
  openInvitations,
  revokeLink,
  useLink,
} from './links';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toInvitation(row: LinkRow, now: number): Invitation {
  return {
    id: row.id,
    email: row.email,
    administrator: row.administrator === 1,
    invitedBy: row.created_by,
    createdAt: iso(row.created_at) as string,
    expiresAt: iso(row.expires_at) as string,
    state: row.expires_at > now ? 'pending' : 'expired',
    emailedAt: iso(row.emailed_at),
  };
}

const role = (administrator: boolean | number) =>
  administrator === true || administrator === 1 ? 'administrator' : 'member';

/**
 * An administrator invites an address with a role. An address that is already a user of the account is
 * 409; inviting an address again revokes its earlier open invitations (the newest link is the one that
 * works). The link is returned to copy and mailed when SMTP is configured.
 */
export async function invite(
  deps: AppDeps,
  p: Principal,
  input: { email: string; administrator: boolean },
  base: string,
): Promise<CreatedInvitation> {
  requireAdmin(p);
  const { db } = deps.storage;
  const email = input.email.trim();
  if (await emailTaken(db, p.accountId, email)) {
    throw conflict(`${email} is already a user of this account. Change their role on the Users page instead.`);
  }
  const { row, token } = await transaction(deps.storage, async (tx) => {
    const open = await openInvitations(tx, p.accountId);
    const earlier = open.filter((o) => o.email.toLowerCase() === email.toLowerCase());
    if (open.length - earlier.length >= MAX_OPEN_INVITATIONS) {
      throw conflict(
        `The account has ${MAX_OPEN_INVITATIONS} open invitations, the most it keeps. Revoke some that are no longer needed first.`,
      );
    }
    for (const o of earlier) await revokeLink(deps, tx, o);
    const made = await createLink(deps, tx, {
      accountId: p.accountId,
      kind: 'invitation',
      email,
      administrator: input.administrator,
      createdBy: p.email,
    });
    const details = { invitation_id: made.row.id, role: role(input.administrator), replaced: earlier.length };
    await auditAction(deps, p, 'invitation.create', { target: email, details }, tx);
    return made;
  });
  const url = linkUrl(base, 'invitation', token);
  const account = await findAccount(db, p.accountId);
  const sent = await deliver(deps, row, url, account.name);
  const now = deps.clock.now().getTime();
  const current = await getLink(db, p.accountId, row.id);
  return { invitation: toInvitation(current, now), link: url, expiresAt: iso(row.expires_at) as string, ...sent };
}

/** Revokes an open invitation of the caller's account (404 for another account's, 409 once accepted). */
export async function revokeInvitation(deps: AppDeps, p: Principal, id: number): Promise<void> {
  requireAdmin(p);
  await transaction(deps.storage, async (tx) => {
    const row = await getLink(tx, p.accountId, id);
    if (row.kind !== 'invitation') throw notFound('invitation');
    if (!(await revokeLink(deps, tx, row))) {
      throw conflict(`The invitation of ${row.email} was already ${row.used_at !== null ? 'accepted' : 'revoked'}.`);
    }
    await auditAction(deps, p, 'invitation.revoke', { target: row.email, details: { invitation_id: row.id } }, tx);
  });
}

/** What an invitation's page shows before the invitee acts. */
export async function describeLink(deps: AppDeps, token: string) {
  const { db } = deps.storage;
  const row = await liveLink(deps, db, token);
  const account = await findAccount(db, row.account_id);
  const ssoAvailable = row.kind === 'invitation' && (await findSetting(db, row.account_id)) !== null;
  return {
    kind: row.kind,
    email: row.email,
    accountName: account.name,
    expiresAt: iso(row.expires_at) as string,
    ssoAvailable,
  };
}

export interface Acceptance {
  token: string;
  name: string;
  password?: string | undefined;
  sso?: true | undefined;
}

/**
 * The invitee joins: the link is used and the user created in one transaction, so a link never makes two
 * users and a refused join leaves the link working. With SSO the account must have an SSO setting.
 */
export async function acceptInvitation(deps: AppDeps, input: Acceptance, address: string): Promise<UserRow> {
  const { db } = deps.storage;
  const first = await liveLink(deps, db, input.token, 'invitation');
  if (input.sso && (await findSetting(db, first.account_id)) === null) {
    throw conflict('This account does not sign in with single sign-on. Choose a password instead.');
  }
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  return transaction(deps.storage, async (tx) => {
    const row = await liveLink(deps, tx, input.token, 'invitation');
    const user = await addInvitedUser(deps, tx, {
      accountId: row.account_id,
      name: input.name,
      email: row.email,
      administrator: row.administrator === 1,
      passwordHash,
    });
    // Another request used or revoked the link meanwhile: this one adds nobody.
    if (!(await useLink(deps, tx, row))) throw linkGone('invitation');
    await recordAudit(
      deps,
      {
        accountId: row.account_id,
        actorUserId: user.id,
        actor: user.email,
        action: 'invitation.accept',
        target: user.email,
        outcome: 'success',
        reason: null,
        details: {
          invitation_id: row.id,
          user_id: user.id,
          role: role(row.administrator),
          method: input.sso ? 'sso' : 'password',
          invited_by: row.created_by,
          address,
        },
      },
      tx,
    );
    return user;
  });
}
