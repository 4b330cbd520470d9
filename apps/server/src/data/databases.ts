import type { AppDeps } from '../platform/context';
import { conflict, forbidden } from '../platform/errors';
import { isForeignKeyViolation, transaction } from '../platform/storage';
import { checkNewName, type DatabaseRow, listTables } from './catalog';
import { forgetDatabase } from './catalogCache';
import { createDataDatabase, deleteDataDatabase } from './fileWrites';

/** Creating, protecting and deleting customer databases. Every statement is scoped by the account. */

export async function createDatabase(deps: AppDeps, accountId: number, name: string): Promise<DatabaseRow> {
  checkNewName(name, 'database');
  const now = deps.clock.now().getTime();
  const row = await deps.storage.db
    .insertInto('databases')
    .values({ account_id: accountId, name, delete_protected: 0, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'name']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw conflict(`Database ${name} already exists.`);
  // The data exists from the start (file or schema), so a query job can read it before any table has rows.
  await createDataDatabase(deps, row);
  return row;
}

export async function setDeleteProtected(deps: AppDeps, database: DatabaseRow, on: boolean): Promise<DatabaseRow> {
  const row = await deps.storage.db
    .updateTable('databases')
    .set({ delete_protected: on ? 1 : 0, updated_at: deps.clock.now().getTime() })
    .where('id', '=', database.id)
    .where('account_id', '=', database.account_id)
    .returningAll()
    .executeTakeFirst();
  return row ?? database;
}

/**
 * Deletes a database, its tables and its data. Refused while delete-protected, and while other
 * records (jobs, imports) still point at it, rather than leaving them dangling.
 */
export async function deleteDatabase(deps: AppDeps, database: DatabaseRow): Promise<void> {
  if (database.delete_protected === 1) {
    throw forbidden(
      `Database ${database.name} is delete-protected. Turn protection off first: POST /v3/database/update/${database.name} with delete_protected=false.`,
    );
  }
  try {
    await transaction(deps.storage, async (tx) => {
      await tx
        .deleteFrom('tables')
        .where('account_id', '=', database.account_id)
        .where('database_id', '=', database.id)
        .execute();
      await tx
        .deleteFrom('databases')
        .where('id', '=', database.id)
        .where('account_id', '=', database.account_id)
        .execute();
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) {
      throw conflict(
        `Database ${database.name} is still used by jobs or bulk imports; delete those first, then the database.`,
      );
    }
    throw err;
  }
  forgetDatabase(deps, database);
  await deleteDataDatabase(deps, database);
}

/** Records in all of a database's tables: the `count` of the database objects. */
export async function recordCount(deps: AppDeps, database: DatabaseRow): Promise<number> {
  const tables = await listTables(deps.storage.db, database.account_id, database.id);
  return tables.reduce((n, t) => n + t.count, 0);
}

/** Record counts of every database of the account, by database id. */
export async function recordCounts(deps: AppDeps, accountId: number): Promise<Map<number, number>> {
  const rows = await deps.storage.db
    .selectFrom('tables')
    .select((s) => ['database_id', s.fn.sum<number | null>('count').as('n')])
    .where('account_id', '=', accountId)
    .groupBy('database_id')
    .execute();
  return new Map(rows.map((r) => [r.database_id, Number(r.n ?? 0)]));
}
