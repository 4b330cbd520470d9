import { KEY_SHAPE, type KeyRow, type KeyType } from '../platform/apiKeys';
import { hmac, randomHex } from '../platform/secrets';
import { type Executor, insertId, one, run, sql, syncIdentity, transaction } from '../platform/storage';

export { KEY_SHAPE, type KeyRow, type KeyType };

/** What a listing may show of a key: its id and the last four digits, never enough to use it. */
export function maskKey(row: Pick<KeyRow, 'id' | 'hint'>): string {
  return `${row.id}/${'•'.repeat(8)}${row.hint}`;
}

/**
 * Creates a key: its id from the table's own id generator (two nodes never pick the same one), or the id of
 * a given full key (a seeded key). Only the HMAC of the full key is stored, so it is written once the id is known.
 */
export async function createKey(
  db: Executor,
  secret: string,
  opts: {
    accountId: number;
    userId: number;
    type: KeyType;
    /** What the key is for, as its owner calls it. */
    name: string;
    now: number;
    /** Unix ms; null or absent: never expires. */
    expiresAt?: number | null;
    fullKey?: string;
  },
): Promise<{ key: string; row: KeyRow }> {
  return transaction(db, async (tx) => {
    let id: number;
    let hex: string;
    if (opts.fullKey) {
      const m = KEY_SHAPE.exec(opts.fullKey);
      if (!m)
        throw new Error(
          'An API key must be "<id>/<40 lowercase hex digits>", for example 1/ followed by 40 hex digits.',
        );
      id = Number(m[1]);
      hex = m[2] as string;
      await run(
        tx,
        sql`INSERT INTO api_keys (id, account_id, user_id, type, name, secret_hash, hint, created_at, expires_at)
            VALUES (${id}, ${opts.accountId}, ${opts.userId}, ${opts.type}, ${opts.name}, ${Buffer.alloc(0)}, '',
                    ${opts.now}, ${opts.expiresAt ?? null})`,
      );
      await syncIdentity(tx, 'api_keys');
    } else {
      hex = randomHex(20);
      id = await insertId(
        tx,
        sql`INSERT INTO api_keys (account_id, user_id, type, name, secret_hash, hint, created_at, expires_at)
            VALUES (${opts.accountId}, ${opts.userId}, ${opts.type}, ${opts.name}, ${Buffer.alloc(0)}, '',
                    ${opts.now}, ${opts.expiresAt ?? null}) RETURNING id`,
      );
    }
    const key = `${id}/${hex}`;
    await run(
      tx,
      sql`UPDATE api_keys SET secret_hash = ${hmac(secret, key)}, hint = ${hex.slice(-4)} WHERE id = ${id}`,
    );
    const row = (await one<KeyRow>(tx, sql`SELECT * FROM api_keys WHERE id = ${id}`)) as KeyRow;
    return { key, row };
  });
}
