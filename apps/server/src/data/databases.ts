import type { AppDeps } from '../platform/context';
import { conflict, forbidden } from '../platform/errors';
import { isForeignKeyViolation, many, one, run, sql, transaction } from '../platform/storage';
import { checkNewName, type DatabaseRow, listTables } from './catalog';
import { forgetDatabase } from './catalogCache';
import { createDataDatabase, deleteDataDatabase } from './fileWrites';

/** Creating, protecting and deleting customer databases. Every statement is scoped by the account. */

export async function createDatabase(deps: AppDeps, accountId: number, name: string): Promise<DatabaseRow> {
  checkNewName(name, 'database');
  const now = deps.clock.now().getTime();
  const row = await one<DatabaseRow>(
    deps.storage.db,
    sql`INSERT INTO databases (account_id, name, delete_protected, created_at, updated_at)
        VALUES (${accountId}, ${name}, 0, ${now}, ${now})
        ON CONFLICT (account_id, name) DO NOTHING
        RETURNING *`,
  );
  if (!row) throw conflict(`Database ${name} already exists.`);
  // The data exists from the start (file or schema), so a query job can read it before any table has rows.
  await createDataDatabase(deps, row);
  return row;
}

export async function setDeleteProtected(deps: AppDeps, database: DatabaseRow, on: boolean): Promise<DatabaseRow> {
  const row = await one<DatabaseRow>(
    deps.storage.db,
    sql`UPDATE databases SET delete_protected = ${on ? 1 : 0}, updated_at = ${deps.clock.now().getTime()}
        WHERE id = ${database.id} AND account_id = ${database.account_id}
        RETURNING *`,
  );
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
      await run(tx, sql`DELETE FROM tables WHERE account_id = ${database.account_id} AND database_id = ${database.id}`);
      await run(tx, sql`DELETE FROM databases WHERE id = ${database.id} AND account_id = ${database.account_id}`);
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
  const rows = await many<{ database_id: number; n: number | null }>(
    deps.storage.db,
    sql`SELECT database_id, SUM(count) AS n FROM tables WHERE account_id = ${accountId} GROUP BY database_id`,
  );
  return new Map(rows.map((r) => [r.database_id, Number(r.n ?? 0)]));
}
