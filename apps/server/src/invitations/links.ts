import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../platform/context';
import { ApiError, notFound } from '../platform/errors';
import { hmac } from '../platform/secrets';
import type { Executor, Row } from '../platform/storage';

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

/** The columns a link is read with: all but its token's hash. */
const COLUMNS = [
  'id',
  'account_id',
  'kind',
  'email',
  'administrator',
  'user_id',
  'created_by',
  'created_at',
  'expires_at',
  'used_at',
  'revoked_at',
  'emailed_at',
] as const;

export type LinkRow = Omit<Pick<Row<'one_time_links'>, (typeof COLUMNS)[number]>, 'kind'> & { kind: LinkKind };

const links = (ex: Executor) => ex.selectFrom('one_time_links').select(COLUMNS).$narrowType<{ kind: LinkKind }>();

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
  const { id } = await ex
    .insertInto('one_time_links')
    .values({
      account_id: link.accountId,
      kind: link.kind,
      token_hash: tokenHash(deps, token),
      email: link.email,
      administrator: link.administrator ? 1 : 0,
      user_id: link.userId ?? null,
      created_by: link.createdBy,
      created_at: now,
      expires_at: now + LINK_LIFETIME_MS[link.kind],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { row: await getLink(ex, link.accountId, Number(id)), token };
}

export async function getLink(ex: Executor, accountId: number, id: number): Promise<LinkRow> {
  const row = await links(ex).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
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
  const row = await links(ex).where('token_hash', '=', tokenHash(deps, token)).executeTakeFirst();
  const now = deps.clock.now().getTime();
  if (!row || row.used_at !== null || row.revoked_at !== null || row.expires_at <= now) throw linkGone(kind ?? null);
  if (kind !== undefined && row.kind !== kind) throw linkGone(kind);
  return row;
}

/** Marks the link used; false when another request used (or revoked) it first. */
export async function useLink(deps: AppDeps, ex: Executor, row: LinkRow): Promise<boolean> {
  const now = deps.clock.now().getTime();
  const { numUpdatedRows } = await ex
    .updateTable('one_time_links')
    .set({ used_at: now })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(numUpdatedRows) === 1;
}

/** Revokes a live link; false when it was already used or revoked. */
export async function revokeLink(deps: AppDeps, ex: Executor, row: LinkRow): Promise<boolean> {
  const { numUpdatedRows } = await ex
    .updateTable('one_time_links')
    .set({ revoked_at: deps.clock.now().getTime() })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(numUpdatedRows) === 1;
}

/** Revokes every live reset link of a user: a newer link, or a reset, replaces the older ones. */
export async function revokeUserResets(deps: AppDeps, ex: Executor, accountId: number, userId: number) {
  await ex
    .updateTable('one_time_links')
    .set({ revoked_at: deps.clock.now().getTime() })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('kind', '=', 'password_reset')
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function markEmailed(deps: AppDeps, row: LinkRow): Promise<void> {
  await deps.storage.db
    .updateTable('one_time_links')
    .set({ emailed_at: deps.clock.now().getTime() })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .execute();
}

/** Invitations neither accepted nor revoked (expired ones too, so they can be sent again), newest first. */
export function openInvitations(ex: Executor, accountId: number): Promise<LinkRow[]> {
  return links(ex)
    .where('account_id', '=', accountId)
    .where('kind', '=', 'invitation')
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_OPEN_INVITATIONS)
    .execute();
}

/** At most this many invitations of an account are open (pending or expired) at once. */
export const MAX_OPEN_INVITATIONS = 200;
