import { forgetVerifiedKeys } from '../platform/apiKeys';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { forbidden, notFound } from '../platform/errors';
import { hmac, sameBytes } from '../platform/secrets';
import { type Executor, many, one, run, sql } from '../platform/storage';
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
export function listKeys(db: Executor, owner: UserRow): Promise<KeyRow[]> {
  return many<KeyRow>(
    db,
    sql`SELECT * FROM api_keys
         WHERE account_id = ${owner.account_id} AND user_id = ${owner.id} AND revoked_at IS NULL ORDER BY id`,
  );
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
export async function findOwnedKey(deps: AppDeps, owner: UserRow, ref: string): Promise<KeyRow> {
  const text = ref.trim();
  const full = KEY_SHAPE.exec(text);
  const masked = MASKED.exec(text);
  const id = full ? Number(full[1]) : masked ? Number(masked[1]) : BARE_ID.test(text) ? Number(text) : null;
  const row =
    id === null
      ? undefined
      : await one<KeyRow>(
          deps.storage.db,
          sql`SELECT * FROM api_keys
               WHERE id = ${id} AND account_id = ${owner.account_id} AND user_id = ${owner.id} AND revoked_at IS NULL`,
        );
  if (!row) throw notFound('api key');
  if (full && !sameBytes(row.secret_hash, hmac(deps.config.secret, text))) throw notFound('api key');
  if (masked && masked[2] !== row.hint) throw notFound('api key');
  return row;
}

export async function revokeKey(deps: AppDeps, row: KeyRow): Promise<void> {
  await run(
    deps.storage.db,
    sql`UPDATE api_keys SET revoked_at = ${deps.clock.now().getTime()}
         WHERE id = ${row.id} AND account_id = ${row.account_id} AND revoked_at IS NULL`,
  );
  // This node stops trusting the key at once (others within VERIFIED_KEY_MS).
  forgetVerifiedKeys(deps.storage);
}
