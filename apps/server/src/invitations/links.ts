import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../platform/context';
import { ApiError, notFound } from '../platform/errors';
import { hmac } from '../platform/secrets';
import { type Executor, insertId, many, one, run, sql } from '../platform/storage';

/**
 * One-time links (decision 0044): invitations and password resets share this store. The token is 32
 * random bytes in the link only; the table keeps its HMAC under the server secret, so a copy of the
 * database opens no link. A link works once, until it expires or is revoked.
 */

export type LinkKind = 'invitation' | 'password_reset';

/** How long a link works: an invitation waits for a person to read their mail, a reset is urgent. */
const LINK_LIFETIME_MS: Readonly<Record<LinkKind, number>> = {
  invitation: 7 * 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
};

export interface LinkRow {
  id: number;
  account_id: number;
  kind: LinkKind;
  email: string;
  administrator: number;
  user_id: number | null;
  created_by: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  emailed_at: number | null;
}

const COLUMNS = sql`id, account_id, kind, email, administrator, user_id, created_by, created_at, expires_at,
  used_at, revoked_at, emailed_at`;

const tokenHash = (deps: AppDeps, token: string) => hmac(deps.config.secret, `link:${token}`);

export interface NewLink {
  accountId: number;
  kind: LinkKind;
  email: string;
  administrator?: boolean;
  userId?: number;
  createdBy: string;
}

/** Stores a new link and returns its row and its token (the token is nowhere else). */
export async function createLink(deps: AppDeps, ex: Executor, link: NewLink): Promise<{ row: LinkRow; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now().getTime();
  const id = await insertId(
    ex,
    sql`INSERT INTO one_time_links (account_id, kind, token_hash, email, administrator, user_id, created_by,
          created_at, expires_at)
        VALUES (${link.accountId}, ${link.kind}, ${tokenHash(deps, token)}, ${link.email},
          ${link.administrator ? 1 : 0}, ${link.userId ?? null}, ${link.createdBy}, ${now},
          ${now + LINK_LIFETIME_MS[link.kind]})
        RETURNING id`,
  );
  return { row: await getLink(ex, link.accountId, id), token };
}

export async function getLink(ex: Executor, accountId: number, id: number): Promise<LinkRow> {
  const row = await one<LinkRow>(
    ex,
    sql`SELECT ${COLUMNS} FROM one_time_links WHERE account_id = ${accountId} AND id = ${id}`,
  );
  if (!row) throw notFound('invitation');
  return row;
}

/** 410: the link was used, revoked, replaced or has expired, or never existed (one answer for all). */
export const linkGone = (kind: LinkKind | null) =>
  new ApiError(
    410,
    'Gone',
    kind === 'password_reset'
      ? 'This password reset link no longer works: it was used, replaced by a newer one, or has expired. Ask for a new one on the sign-in page.'
      : 'This link no longer works: it was used, revoked, or has expired. Ask the administrator who invited you for a new one.',
  );

/** The live link a token opens, of the kind asked for, or 410 saying what to do (one answer for every cause). */
export async function liveLink(deps: AppDeps, ex: Executor, token: string, kind?: LinkKind): Promise<LinkRow> {
  const row = await one<LinkRow>(
    ex,
    sql`SELECT ${COLUMNS} FROM one_time_links WHERE token_hash = ${tokenHash(deps, token)}`,
  );
  const now = deps.clock.now().getTime();
  if (!row || row.used_at !== null || row.revoked_at !== null || row.expires_at <= now) throw linkGone(kind ?? null);
  if (kind !== undefined && row.kind !== kind) throw linkGone(kind);
  return row;
}

/** Marks the link used; false when another request used (or revoked) it first. */
export async function useLink(deps: AppDeps, ex: Executor, row: LinkRow): Promise<boolean> {
  const now = deps.clock.now().getTime();
  const changed = await run(
    ex,
    sql`UPDATE one_time_links SET used_at = ${now}
         WHERE account_id = ${row.account_id} AND id = ${row.id} AND used_at IS NULL AND revoked_at IS NULL
           AND expires_at > ${now}`,
  );
  return changed === 1;
}

/** Revokes a live link; false when it was already used or revoked. */
export async function revokeLink(deps: AppDeps, ex: Executor, row: LinkRow): Promise<boolean> {
  const changed = await run(
    ex,
    sql`UPDATE one_time_links SET revoked_at = ${deps.clock.now().getTime()}
         WHERE account_id = ${row.account_id} AND id = ${row.id} AND used_at IS NULL AND revoked_at IS NULL`,
  );
  return changed === 1;
}

/** Revokes every live reset link of a user: a newer link, or a reset, replaces the older ones. */
export async function revokeUserResets(deps: AppDeps, ex: Executor, accountId: number, userId: number) {
  await run(
    ex,
    sql`UPDATE one_time_links SET revoked_at = ${deps.clock.now().getTime()}
         WHERE account_id = ${accountId} AND user_id = ${userId} AND kind = 'password_reset'
           AND used_at IS NULL AND revoked_at IS NULL`,
  );
}

export async function markEmailed(deps: AppDeps, row: LinkRow): Promise<void> {
  await run(
    deps.storage.db,
    sql`UPDATE one_time_links SET emailed_at = ${deps.clock.now().getTime()}
         WHERE account_id = ${row.account_id} AND id = ${row.id}`,
  );
}

/** Invitations neither accepted nor revoked (expired ones too, so they can be sent again), newest first. */
export function openInvitations(ex: Executor, accountId: number): Promise<LinkRow[]> {
  return many<LinkRow>(
    ex,
    sql`SELECT ${COLUMNS} FROM one_time_links
         WHERE account_id = ${accountId} AND kind = 'invitation' AND used_at IS NULL AND revoked_at IS NULL
         ORDER BY created_at DESC, id DESC LIMIT ${MAX_OPEN_INVITATIONS}`,
  );
}

/** At most this many invitations of an account are open (pending or expired) at once. */
export const MAX_OPEN_INVITATIONS = 200;
