import { userColumnOf } from '../accounts';
import { conflict, notFound } from '../platform/errors';
import { type Executor, many, one, type Row, sql, unlessTaken } from '../platform/storage';

/** The SQL of the `saved_queries` table (migration 36). Every read and write is scoped by account. */

/**
 * A row of `saved_queries` (platform/storage/controlTables/savedQueries.ts). `user_id` is the owner, null once
 * that user is removed; `type` is presto or hive.
 */
export type SavedQueryRow = Row<'saved_queries'>;

/** A saved query with its owner's name, as the wire shows it. */
export type SavedQueryView = SavedQueryRow & { owner_name: string | null };

export type SavedQueryFields = Pick<SavedQueryRow, 'name' | 'description' | 'type' | 'database_name' | 'query'>;

/** The fields' columns alone: `f` may be a whole row, whose other columns an INSERT or UPDATE must not take. */
const fieldsOf = (f: SavedQueryFields): SavedQueryFields => ({
  name: f.name,
  description: f.description,
  type: f.type,
  database_name: f.database_name,
  query: f.query,
});

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
  const { n } = await ex
    .selectFrom('saved_queries')
    .where('account_id', '=', accountId)
    .select((s) => s.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertSavedQuery(
  ex: Executor,
  accountId: number,
  userId: number,
  f: SavedQueryFields,
  now: number,
): Promise<number> {
  const { id } = await unlessTaken(
    ex
      .insertInto('saved_queries')
      .values({ ...fieldsOf(f), account_id: accountId, user_id: userId, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow(),
    () => taken(f.name),
  );
  return Number(id);
}

export async function saveSavedQuery(
  ex: Executor,
  row: SavedQueryRow,
  f: SavedQueryFields,
  now: number,
): Promise<void> {
  await unlessTaken(
    ex
      .updateTable('saved_queries')
      .set({ ...fieldsOf(f), updated_at: now })
      .where('id', '=', row.id)
      .where('account_id', '=', row.account_id)
      .execute(),
    () => taken(f.name),
  );
}

export async function recordRun(ex: Executor, row: SavedQueryRow, jobId: number, at: number): Promise<void> {
  await ex
    .updateTable('saved_queries')
    .set({ last_job_id: jobId, last_run_at: at })
    .where('id', '=', row.id)
    .where('account_id', '=', row.account_id)
    .execute();
}

export async function deleteSavedQuery(ex: Executor, row: SavedQueryRow): Promise<void> {
  await ex.deleteFrom('saved_queries').where('id', '=', row.id).where('account_id', '=', row.account_id).execute();
}
