import type { Db } from './db';
import { hmac, sameBytes } from './secrets';

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
  type: KeyType;
  secret_hash: Buffer;
  hint: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Finds the live key a full key string names, comparing the stored HMAC in constant time. */
export function findLiveKey(db: Db, secret: string, fullKey: string): KeyRow | null {
  const m = KEY_SHAPE.exec(fullKey);
  if (!m) return null;
  const row = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(Number(m[1])) as KeyRow | undefined;
  const expected = hmac(secret, fullKey);
  if (!row) {
    sameBytes(expected, expected);
    return null;
  }
  if (!sameBytes(row.secret_hash, expected) || row.revoked_at !== null) return null;
  return row;
}

export function touchKey(db: Db, id: number, now: number): void {
  db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, id);
}
