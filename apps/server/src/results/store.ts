import { conflict, notFound } from '../platform/errors';
import { type Executor, isUniqueViolation, many, one, run, sql } from '../platform/storage';

/** The control database's result connections. Every query is scoped by account. */

export interface ResultRow {
  id: number;
  account_id: number;
  name: string;
  /** As given, credentials included; never sent to a client unmasked. */
  url: string;
  created_at: number;
  updated_at: number;
}

export function listResults(db: Executor, accountId: number): Promise<ResultRow[]> {
  return many<ResultRow>(db, sql`SELECT * FROM result_connections WHERE account_id = ${accountId} ORDER BY name`);
}

export async function findResult(db: Executor, accountId: number, name: string): Promise<ResultRow | null> {
  return (
    (await one<ResultRow>(
      db,
      sql`SELECT * FROM result_connections WHERE account_id = ${accountId} AND name = ${name}`,
    )) ?? null
  );
}

export async function insertResult(
  db: Executor,
  accountId: number,
  name: string,
  url: string,
  now: number,
): Promise<void> {
  try {
    await run(
      db,
      sql`INSERT INTO result_connections (account_id, name, url, created_at, updated_at)
          VALUES (${accountId}, ${name}, ${url}, ${now}, ${now})`,
    );
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict(`A result connection named "${name}" already exists. Delete it first or choose another name.`);
    }
    throw err;
  }
}

export async function deleteResult(db: Executor, accountId: number, name: string): Promise<void> {
  const changed = await run(db, sql`DELETE FROM result_connections WHERE account_id = ${accountId} AND name = ${name}`);
  if (changed === 0) throw notFound('result connection');
}
