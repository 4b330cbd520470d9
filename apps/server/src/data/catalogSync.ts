import type { Db } from '../platform/db';
import { notFound } from '../platform/errors';
import type { DatabaseRow, TableRow } from './catalog';

/**
 * TRANSITIONAL (issue 16): catalog lookups on the SQLite connection `deps.db`, only for synchronous code of
 * features still being converted to the storage layer (audiences, the dwh test fixture). Use catalog.ts; this
 * file goes with `deps.db` once those callers await `findDatabase(deps.storage.db, …)`.
 */

export function findDatabaseSync(db: Db, accountId: number, name: string): DatabaseRow | null {
  return (
    (db.prepare('SELECT * FROM databases WHERE account_id = ? AND name = ?').get(accountId, name) as
      | DatabaseRow
      | undefined) ?? null
  );
}

export function requireDatabaseSync(db: Db, accountId: number, name: string): DatabaseRow {
  const row = findDatabaseSync(db, accountId, name);
  if (!row) throw notFound('database');
  return row;
}

export function findTableSync(db: Db, accountId: number, databaseId: number, name: string): TableRow | null {
  return (
    (db
      .prepare('SELECT * FROM tables WHERE account_id = ? AND database_id = ? AND name = ?')
      .get(accountId, databaseId, name) as TableRow | undefined) ?? null
  );
}

export function requireTableSync(db: Db, accountId: number, databaseId: number, name: string): TableRow {
  const row = findTableSync(db, accountId, databaseId, name);
  if (!row) throw notFound('table');
  return row;
}
