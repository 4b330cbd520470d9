import { hmac, sameBytes } from './secrets';
import { type Executor, one, run, sql } from './storage';

/**
 * API keys as authentication reads them (the accounts feature creates, lists and revokes them): the key
 * shape, the stored row, and the constant-time lookup of a live key.
 */

export type KeyType = 'master' | 'write-only';

/** A full key is `<key id>/<40 hex digits>`; only its HMAC is stored. */
export const KEY_SHAPE = /^([1-9][0-9]{0,15})\/([0-9a-f]{40})$/;

export interface KeyRow {
  id: number;
  account_id: number;
  user_id: number;
  name: string;
  type: KeyType;
  secret_hash: Buffer;
  hint: string;
  created_at: number;
  last_used_at: number | null;
  /** Unix ms; null: never expires. Authentication refuses the key from then on. */
  expires_at: number | null;
  revoked_at: number | null;
}

/**
 * Finds the unrevoked key a full key string names, comparing the stored HMAC in constant time. Expired keys
 * are found too: authentication refuses them with a message of their own.
 */
export async function findLiveKey(db: Executor, secret: string, fullKey: string): Promise<KeyRow | null> {
  const m = KEY_SHAPE.exec(fullKey);
  if (!m) return null;
  const row = await one<KeyRow>(db, sql`SELECT * FROM api_keys WHERE id = ${Number(m[1])}`);
  const expected = hmac(secret, fullKey);
  if (!row) {
    sameBytes(expected, expected);
    return null;
  }
  if (!sameBytes(row.secret_hash, expected) || row.revoked_at !== null) return null;
  return row;
}

/** How stale `last_used_at` may get: a key in steady use is written once a minute, not on every request. */
const TOUCH_EVERY_MS = 60_000;
const touched = new WeakMap<object, Map<number, number>>();

/** Records that a key was used; at most once a minute per key, so a busy key does not write on every call. */
export async function touchKey(db: Executor, id: number, now: number): Promise<void> {
  let seen = touched.get(db);
  if (!seen) {
    seen = new Map();
    touched.set(db, seen);
  }
  const last = seen.get(id);
  if (last !== undefined && now - last < TOUCH_EVERY_MS && now >= last) return;
  seen.set(id, now);
  await run(db, sql`UPDATE api_keys SET last_used_at = ${now} WHERE id = ${id}`);
}
