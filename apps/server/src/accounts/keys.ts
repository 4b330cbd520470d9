import { KEY_SHAPE, type KeyRow, type KeyType } from '../platform/apiKeys';
import type { Db } from '../platform/db';
import { hmac, randomHex } from '../platform/secrets';

export { KEY_SHAPE, type KeyRow, type KeyType };

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
