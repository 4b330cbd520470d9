import { conflict, notFound } from '../platform/errors';
import { type Executor, isUniqueViolation, type Row } from '../platform/storage';

/** The control database's result connections. Every query is scoped by account. */

/**
 * A row of `result_connections` (platform/storage/controlTables/results.ts). `url` is as given, credentials
 * included; never sent to a client unmasked.
 */
export type ResultRow = Row<'result_connections'>;

export function listResults(db: Executor, accountId: number): Promise<ResultRow[]> {
  return db.selectFrom('result_connections').selectAll().where('account_id', '=', accountId).orderBy('name').execute();
}

export async function findResult(db: Executor, accountId: number, name: string): Promise<ResultRow | null> {
  const row = await db
    .selectFrom('result_connections')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row ?? null;
}

export async function insertResult(
  db: Executor,
  accountId: number,
  name: string,
  url: string,
  now: number,
): Promise<void> {
  try {
    await db
      .insertInto('result_connections')
      .values({ account_id: accountId, name, url, created_at: now, updated_at: now })
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict(`A result connection named "${name}" already exists. Delete it first or choose another name.`);
    }
    throw err;
  }
}

export async function deleteResult(db: Executor, accountId: number, name: string): Promise<void> {
  const { numDeletedRows } = await db
    .deleteFrom('result_connections')
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (Number(numDeletedRows) === 0) throw notFound('result connection');
}
