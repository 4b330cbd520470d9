import { API_KEY_MAX_LIFETIME_DAYS } from '@svc/contracts';
import { auditAction } from '../audit';
import { forgetVerifiedKeys } from '../platform/apiKeys';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, forbidden, notFound } from '../platform/errors';
import { hmac, sameBytes } from '../platform/secrets';
import { type Executor, transaction } from '../platform/storage';
import { parseIsoInstant } from '../platform/time';
import { createKey, KEY_SHAPE, type KeyRow, type KeyType, maskKey } from './keys';
import type { UserRow } from './users';

/** A key with the e-mail of the user it acts as, as listings show it. */
export type OwnedKeyRow = KeyRow & { owner_email: string };

/** A user manages their own keys; an administrator manages the keys of every user of the account. */
export function assertMayManageKeys(principal: Principal, owner: Pick<UserRow, 'id' | 'account_id'>): void {
  if (owner.account_id !== principal.accountId) throw notFound('user');
  if (owner.id !== principal.userId && !principal.administrator) {
    throw forbidden("Only an administrator can manage another user's API keys.");
  }
}

/**
 * The unrevoked keys (expired ones too) of the account, oldest first: of one user (`userId`), or one key
 * (`keyId`), or all.
 */
export function listKeys(
  db: Executor,
  accountId: number,
  only: { userId?: number | undefined; keyId?: number | undefined } = {},
): Promise<OwnedKeyRow[]> {
  const { userId, keyId } = only;
  return db
    .selectFrom('api_keys as k')
    .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'k.user_id').onRef('u.account_id', '=', 'k.account_id'))
    .selectAll('k')
    .select('u.email as owner_email')
    .where('k.account_id', '=', accountId)
    .where('k.revoked_at', 'is', null)
    .$if(userId !== undefined, (q) => q.where('k.user_id', '=', userId as number))
    .$if(keyId !== undefined, (q) => q.where('k.id', '=', keyId as number))
    .orderBy('k.id')
    .$narrowType<Pick<KeyRow, 'type'>>()
    .execute();
}

export interface NewKey {
  type: KeyType;
  name: string;
  /** ISO 8601; null or absent: the key never expires. */
  expiresAt?: string | null | undefined;
}

/** An expiry in the future and at most `API_KEY_MAX_LIFETIME_DAYS` ahead, as Unix ms; null for none. */
function expiryOf(deps: AppDeps, expiresAt: string | null | undefined): number | null {
  if (expiresAt === undefined || expiresAt === null || expiresAt === '') return null;
  const ms = parseIsoInstant(expiresAt);
  if (ms === null) throw badRequest('The expiry must be an ISO 8601 time, e.g. 2027-01-31T00:00:00Z.');
  const now = deps.clock.now().getTime();
  if (ms <= now) throw badRequest('The expiry is in the past: choose a time to come, or leave it out for no expiry.');
  if (ms > now + API_KEY_MAX_LIFETIME_DAYS * 86_400_000) {
    throw badRequest(
      `The expiry is more than ${API_KEY_MAX_LIFETIME_DAYS} days ahead: choose an earlier time, or leave it out for no expiry.`,
    );
  }
  return ms;
}

/**
 * Creates a key for the user, recorded in the audit log (its id, name, type and expiry; never the secret).
 * The returned full key is shown once and never again.
 */
export async function addKey(
  deps: AppDeps,
  principal: Principal,
  owner: UserRow,
  input: NewKey,
): Promise<{ key: string; row: KeyRow }> {
  const expiresAt = expiryOf(deps, input.expiresAt);
  return transaction(deps.storage, async (tx) => {
    const created = await createKey(tx, deps.config.secret, {
      accountId: owner.account_id,
      userId: owner.id,
      type: input.type,
      name: input.name,
      expiresAt,
      now: deps.clock.now().getTime(),
    });
    const { row } = created;
    const details = {
      key_id: row.id,
      key: maskKey(row),
      name: row.name,
      type: row.type,
      expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
    };
    await auditAction(deps, principal, 'api_key.create', { target: owner.email, details }, tx);
    return created;
  });
}

const MASKED = /^([1-9][0-9]{0,15})\/•+([0-9a-f]{4})$/;
const BARE_ID = /^[1-9][0-9]{0,15}$/;

/**
 * Finds one of the user's unrevoked keys from what a client sends to name it: the full key (its secret
 * must match), the key id, or the masked form a listing shows (its last four digits must match). Anything
 * else, or a key of someone else, is 404.
 */
export async function findOwnedKey(deps: AppDeps, owner: UserRow, ref: string): Promise<KeyRow> {
  const text = ref.trim();
  const full = KEY_SHAPE.exec(text);
  const masked = MASKED.exec(text);
  const id = full ? Number(full[1]) : masked ? Number(masked[1]) : BARE_ID.test(text) ? Number(text) : null;
  const row =
    id === null
      ? undefined
      : await deps.storage.db
          .selectFrom('api_keys')
          .selectAll()
          .where('id', '=', id)
          .where('account_id', '=', owner.account_id)
          .where('user_id', '=', owner.id)
          .where('revoked_at', 'is', null)
          .$narrowType<Pick<KeyRow, 'type'>>()
          .executeTakeFirst();
  if (!row) throw notFound('api key');
  if (full && !sameBytes(row.secret_hash, hmac(deps.config.secret, text))) throw notFound('api key');
  if (masked && masked[2] !== row.hint) throw notFound('api key');
  return row;
}

/** An unrevoked key of the account by id, with its owner's e-mail; 404 otherwise. */
export async function findAccountKey(deps: AppDeps, accountId: number, id: number): Promise<OwnedKeyRow> {
  const row = (await listKeys(deps.storage.db, accountId, { keyId: id }))[0];
  if (!row) throw notFound('api key');
  return row;
}

/** Revokes a key, recorded in the audit log with the key's id and name. */
export async function revokeKey(deps: AppDeps, principal: Principal, row: KeyRow, ownerEmail: string): Promise<void> {
  await transaction(deps.storage, async (tx) => {
    const { numUpdatedRows } = await tx
      .updateTable('api_keys')
      .set({ revoked_at: deps.clock.now().getTime() })
      .where('id', '=', row.id)
      .where('account_id', '=', row.account_id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    // Two revocations at once: the second finds nothing left to do and records nothing.
    if (Number(numUpdatedRows) === 0) return;
    const details = { key_id: row.id, key: maskKey(row), name: row.name, type: row.type };
    await auditAction(deps, principal, 'api_key.revoke', { target: ownerEmail, details }, tx);
  });
  // This node stops trusting the key at once (others within VERIFIED_KEY_MS).
  forgetVerifiedKeys(deps);
}
