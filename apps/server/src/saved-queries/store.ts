import { userColumnOf } from '../accounts';
import { conflict, notFound } from '../platform/errors';
import { type Executor, insertId, isUniqueViolation, many, one, run, sql } from '../platform/storage';

/** The SQL of the `saved_queries` table (migration 36). Every read and write is scoped by account. */

export interface SavedQueryRow {
  id: number;
  account_id: number;
  /** The owner; null once that user is removed. */
  user_id: number | null;
  name: string;
  description: string;
  /** presto or hive. */
  type: string;
  database_name: string;
  query: string;
  last_job_id: number | null;
  last_run_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A saved query with its owner's name, as the wire shows it. */
export type SavedQueryView = SavedQueryRow & { owner_name: string | null };

export type SavedQueryFields = Pick<SavedQueryRow, 'name' | 'description' | 'type' | 'database_name' | 'query'>;

const VIEW = sql`SELECT saved_queries.*,
    ${userColumnOf('name', 'saved_queries.user_id', 'saved_queries.account_id')} AS owner_name
  FROM saved_queries`;

const taken = (name: string) =>
  conflict(`"name": a saved query named "${name}" already exists in this account. Choose another name.`);

/** The account's saved query of that id; anything else (missing, another account's, not a number) is 404. */
export async function requireSavedQuery(ex: Executor, accountId: number, id: string): Promise<SavedQueryView> {
  const n = /^\d{1,15}$/.test(id) ? Number(id) : null;
  const row =
    n === null
      ? undefined
      : await one<SavedQueryView>(
          ex,
          sql`${VIEW} WHERE saved_queries.account_id = ${accountId} AND saved_queries.id = ${n}`,
        );
  if (!row) throw notFound('saved query');
  return row;
}

/** The account's saved queries, by name; `search` matches name, description, database or query text. */
export function listSavedQueries(ex: Executor, accountId: number, search: string | null): Promise<SavedQueryView[]> {
  const pattern = search ? `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where =
    pattern === null
      ? sql``
      : sql` AND (LOWER(saved_queries.name) LIKE ${pattern} ESCAPE '\\' OR LOWER(saved_queries.description) LIKE ${pattern} ESCAPE '\\'
              OR LOWER(saved_queries.database_name) LIKE ${pattern} ESCAPE '\\' OR LOWER(saved_queries.query) LIKE ${pattern} ESCAPE '\\')`;
  return many<SavedQueryView>(
    ex,
    sql`${VIEW} WHERE saved_queries.account_id = ${accountId}${where} ORDER BY LOWER(saved_queries.name), saved_queries.id`,
  );
}

export async function countSavedQueries(ex: Executor, accountId: number): Promise<number> {
  const row = await one<{ n: number }>(
    ex,
    sql`SELECT COUNT(*) AS n FROM saved_queries WHERE account_id = ${accountId}`,
  );
  return Number(row?.n ?? 0);
}

export async function insertSavedQuery(
  ex: Executor,
  accountId: number,
  userId: number,
  f: SavedQueryFields,
  now: number,
): Promise<number> {
  try {
    return await insertId(
      ex,
      sql`INSERT INTO saved_queries (account_id, user_id, name, description, type, database_name, query, created_at, updated_at)
          VALUES (${accountId}, ${userId}, ${f.name}, ${f.description}, ${f.type}, ${f.database_name}, ${f.query}, ${now}, ${now})
          RETURNING id`,
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(f.name);
    throw err;
  }
}

export async function saveSavedQuery(
  ex: Executor,
  row: SavedQueryRow,
  f: SavedQueryFields,
  now: number,
): Promise<void> {
  try {
    await run(
      ex,
      sql`UPDATE saved_queries SET name = ${f.name}, description = ${f.description}, type = ${f.type},
            database_name = ${f.database_name}, query = ${f.query}, updated_at = ${now}
          WHERE id = ${row.id} AND account_id = ${row.account_id}`,
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(f.name);
    throw err;
  }
}

export async function recordRun(ex: Executor, row: SavedQueryRow, jobId: number, at: number): Promise<void> {
  await run(
    ex,
    sql`UPDATE saved_queries SET last_job_id = ${jobId}, last_run_at = ${at}
        WHERE id = ${row.id} AND account_id = ${row.account_id}`,
  );
}

export async function deleteSavedQuery(ex: Executor, row: SavedQueryRow): Promise<void> {
  await run(ex, sql`DELETE FROM saved_queries WHERE id = ${row.id} AND account_id = ${row.account_id}`);
}
