import type { AppDeps } from '../platform/context';
import { conflict } from '../platform/errors';
import { createTableRow, type DatabaseRow, type TableRow } from './catalog';
import type { SchemaEntry } from './columns';
import { createDataTableInWorker, dropDataTableInWorker } from './fileWrites';

/** Creating and deleting tables through the catalog API; rows are written by tableStore.ts. */

export async function createTable(
  deps: AppDeps,
  database: DatabaseRow,
  name: string,
  opts: { schema: SchemaEntry[]; expireDays: number | null; includeV: boolean },
): Promise<TableRow> {
  const row = deps.db.transaction(() => {
    const created = createTableRow(deps, database, name, opts.schema);
    deps.db
      .prepare('UPDATE tables SET expire_days = ?, include_v = ? WHERE id = ? AND account_id = ?')
      .run(opts.expireDays, opts.includeV ? 1 : 0, created.id, created.account_id);
    return { ...created, expire_days: opts.expireDays, include_v: opts.includeV ? 1 : 0 };
  })();
  // The catalog row first: a crash before this line only delays the data table to the first write.
  await createDataTableInWorker(deps, database, row);
  return row;
}

/** Removes the catalog row first, then the rows: a crash in between leaves only data no one can see. */
export async function deleteTable(deps: AppDeps, database: DatabaseRow, table: TableRow): Promise<void> {
  try {
    deps.db.prepare('DELETE FROM tables WHERE id = ? AND account_id = ?').run(table.id, table.account_id);
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw conflict(`Table ${table.name} is still used by bulk imports or jobs; delete those first.`);
    }
    throw err;
  }
  await dropDataTableInWorker(deps, database, table.name);
}
