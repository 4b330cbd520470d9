import { KEY_SHAPE, type KeyRow, type KeyType } from '../platform/apiKeys';
import { hmac, randomHex } from '../platform/secrets';
import { type Executor, syncIdentity, transaction } from '../platform/storage';

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
    // The secret's hash and hint are written once the id, part of the key, is known.
    const fields = {
      account_id: opts.accountId,
      user_id: opts.userId,
      type: opts.type,
      name: opts.name,
      secret_hash: Buffer.alloc(0),
      hint: '',
      created_at: opts.now,
      expires_at: opts.expiresAt ?? null,
    };
    if (opts.fullKey) {
      const m = KEY_SHAPE.exec(opts.fullKey);
      if (!m)
        throw new Error(
          'An API key must be "<id>/<40 lowercase hex digits>", for example 1/ followed by 40 hex digits.',
        );
      id = Number(m[1]);
      hex = m[2] as string;
      await tx
        .insertInto('api_keys')
        .values({ id, ...fields })
        .execute();
      await syncIdentity(tx, 'api_keys');
    } else {
      hex = randomHex(20);
      const inserted = await tx.insertInto('api_keys').values(fields).returning('id').executeTakeFirstOrThrow();
      id = Number(inserted.id);
    }
    const key = `${id}/${hex}`;
    await tx
      .updateTable('api_keys')
      .set({ secret_hash: hmac(secret, key), hint: hex.slice(-4) })
      .where('id', '=', id)
      .execute();
    const row = (await tx
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .$narrowType<Pick<KeyRow, 'type'>>()
      .executeTakeFirst()) as KeyRow;
    return { key, row };
  });
}
