import type { Db } from '../platform/db';
import { hmac, randomHex, sameBytes } from '../platform/secrets';

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

/** What a listing may show of a key: its id and the last four digits, never enough to use it. */
export function maskKey(row: Pick<KeyRow, 'id' | 'hint'>): string {
  return `${row.id}/${'•'.repeat(8)}${row.hint}`;
}

export function createKey(
  db: Db,
  secret: string,
  opts: { accountId: number; userId: number; type: KeyType; now: number; fullKey?: string },
): { key: string; row: KeyRow } {
  let id: number;
  let hex: string;
  if (opts.fullKey) {
    const m = KEY_SHAPE.exec(opts.fullKey);
    if (!m)
      throw new Error('An API key must be "<id>/<40 lowercase hex digits>", for example 1/ followed by 40 hex digits.');
    id = Number(m[1]);
    hex = m[2] as string;
  } else {
    const next = db.prepare('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM api_keys').get() as { id: number };
    id = next.id;
    hex = randomHex(20);
  }
  const key = `${id}/${hex}`;
  db.prepare(
    `INSERT INTO api_keys (id, account_id, user_id, type, secret_hash, hint, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, opts.accountId, opts.userId, opts.type, hmac(secret, key), hex.slice(-4), opts.now);
  const row = db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow;
  return { key, row };
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

/** How stale `last_used_at` may get: a key in steady use is written once a minute, not on every request. */
const TOUCH_EVERY_MS = 60_000;
const touched = new WeakMap<Db, Map<number, number>>();

/** Records that a key was used; at most once a minute per key, so a busy key does not write on every call. */
export function touchKey(db: Db, id: number, now: number): void {
  let seen = touched.get(db);
  if (!seen) {
    seen = new Map();
    touched.set(db, seen);
  }
  const last = seen.get(id);
  if (last !== undefined && now - last < TOUCH_EVERY_MS && now >= last) return;
  seen.set(id, now);
  db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, id);
}
