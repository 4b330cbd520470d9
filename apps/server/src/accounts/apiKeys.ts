import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import type { Db } from '../platform/db';
import { forbidden, notFound } from '../platform/errors';
import { hmac, sameBytes } from '../platform/secrets';
import { createKey, KEY_SHAPE, type KeyRow, type KeyType } from './keys';
import type { UserRow } from './users';

/** A user manages their own keys; an administrator manages the keys of every user of the account. */
export function assertMayManageKeys(principal: Principal, owner: UserRow): void {
  if (owner.account_id !== principal.accountId) throw notFound('user');
  if (owner.id !== principal.userId && !principal.administrator) {
    throw forbidden("Only an administrator can manage another user's API keys.");
  }
}

/** The live (unrevoked) keys of a user, oldest first. */
export function listKeys(db: Db, owner: UserRow): KeyRow[] {
  return db
    .prepare('SELECT * FROM api_keys WHERE account_id = ? AND user_id = ? AND revoked_at IS NULL ORDER BY id')
    .all(owner.account_id, owner.id) as KeyRow[];
}

/** Creates a key for the user. The returned full key is shown once and never again. */
export function addKey(deps: AppDeps, owner: UserRow, type: KeyType): Promise<{ key: string; row: KeyRow }> {
  return createKey(deps.storage.db, deps.config.secret, {
    accountId: owner.account_id,
    userId: owner.id,
    type,
    now: deps.clock.now().getTime(),
  });
}

const MASKED = /^([1-9][0-9]{0,15})\/•+([0-9a-f]{4})$/;
const BARE_ID = /^[1-9][0-9]{0,15}$/;

/**
 * Finds one of the user's live keys from what a client sends to name it: the full key (its secret must
 * match), the key id, or the masked form a listing shows (its last four digits must match). Anything
 * else, or a key of someone else, is 404.
 */
export function findOwnedKey(deps: AppDeps, owner: UserRow, ref: string): KeyRow {
  const text = ref.trim();
  const full = KEY_SHAPE.exec(text);
  const masked = MASKED.exec(text);
  const id = full ? Number(full[1]) : masked ? Number(masked[1]) : BARE_ID.test(text) ? Number(text) : null;
  const row =
    id === null
      ? undefined
      : (deps.db
          .prepare('SELECT * FROM api_keys WHERE id = ? AND account_id = ? AND user_id = ? AND revoked_at IS NULL')
          .get(id, owner.account_id, owner.id) as KeyRow | undefined);
  if (!row) throw notFound('api key');
  if (full && !sameBytes(row.secret_hash, hmac(deps.config.secret, text))) throw notFound('api key');
  if (masked && masked[2] !== row.hint) throw notFound('api key');
  return row;
}

export function revokeKey(deps: AppDeps, row: KeyRow): void {
  deps.db
    .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL')
    .run(deps.clock.now().getTime(), row.id, row.account_id);
}
