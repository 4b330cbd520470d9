import type { AppDeps } from '../platform/context';
import { conflict, forbidden } from '../platform/errors';
import { checkNewName, type DatabaseRow, findDatabase, listTables } from './catalog';
import { dataFile } from './dataFiles';
import { deleteDataFileInWorker } from './fileWrites';

/** Creating, protecting and deleting customer databases. Every statement is scoped by the account. */

export function createDatabase(deps: AppDeps, accountId: number, name: string): DatabaseRow {
  if (findDatabase(deps.db, accountId, name)) throw conflict(`Database ${name} already exists.`);
  checkNewName(name, 'database');
  const now = deps.clock.now().getTime();
  const result = deps.db
    .prepare(
      'INSERT INTO databases (account_id, name, delete_protected, created_at, updated_at) VALUES (?, ?, 0, ?, ?)',
    )
    .run(accountId, name, now, now);
  const row = deps.db.prepare('SELECT * FROM databases WHERE id = ?').get(result.lastInsertRowid) as DatabaseRow;
  // The file exists from the start, so a query job can open it read-only before any table has rows.
  dataFile(deps, row);
  return row;
}

export function setDeleteProtected(deps: AppDeps, database: DatabaseRow, on: boolean): DatabaseRow {
  deps.db
    .prepare('UPDATE databases SET delete_protected = ?, updated_at = ? WHERE id = ? AND account_id = ?')
    .run(on ? 1 : 0, deps.clock.now().getTime(), database.id, database.account_id);
  return deps.db
    .prepare('SELECT * FROM databases WHERE id = ? AND account_id = ?')
    .get(database.id, database.account_id) as DatabaseRow;
}

/**
 * Deletes a database, its tables and its data file. Refused while delete-protected, and while other
 * records (jobs, imports) still point at it, rather than leaving them dangling.
 */
export async function deleteDatabase(deps: AppDeps, database: DatabaseRow): Promise<void> {
  if (database.delete_protected === 1) {
    throw forbidden(
      `Database ${database.name} is delete-protected. Turn protection off first: POST /v3/database/update/${database.name} with delete_protected=false.`,
    );
  }
  try {
    deps.db.transaction(() => {
      deps.db
        .prepare('DELETE FROM tables WHERE account_id = ? AND database_id = ?')
        .run(database.account_id, database.id);
      deps.db.prepare('DELETE FROM databases WHERE id = ? AND account_id = ?').run(database.id, database.account_id);
    })();
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw conflict(
        `Database ${database.name} is still used by jobs or bulk imports; delete those first, then the database.`,
      );
    }
    throw err;
  }
  await deleteDataFileInWorker(deps, database);
}

/** Records in all of a database's tables: the `count` of the database objects. */
export function recordCount(deps: AppDeps, database: DatabaseRow): number {
  return listTables(deps.db, database.account_id, database.id).reduce((n, t) => n + t.count, 0);
}

/** Record counts of every database of the account, by database id. */
export function recordCounts(deps: AppDeps, accountId: number): Map<number, number> {
  const rows = deps.db
    .prepare('SELECT database_id, SUM(count) AS n FROM tables WHERE account_id = ? GROUP BY database_id')
    .all(accountId) as { database_id: number; n: number }[];
  return new Map(rows.map((r) => [r.database_id, r.n]));
}
