import type { AppDeps } from '../platform/context';
import { conflict } from '../platform/errors';
import { isForeignKeyViolation, transaction } from '../platform/storage';
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
  const row = await transaction(deps.storage, async (tx) => {
    const created = await createTableRow(deps, database, name, opts.schema, tx);
    const includeV = opts.includeV ? 1 : 0;
    await tx
      .updateTable('tables')
      .set({ expire_days: opts.expireDays, include_v: includeV })
      .where('id', '=', created.id)
      .where('account_id', '=', created.account_id)
      .execute();
    return { ...created, expire_days: opts.expireDays, include_v: includeV };
  });
  // The catalog row first: a crash before this line only delays the data table to the first write.
  await createDataTableInWorker(deps, database, row);
  return row;
}

/** Removes the catalog row first, then the rows: a crash in between leaves only data no one can see. */
export async function deleteTable(deps: AppDeps, database: DatabaseRow, table: TableRow): Promise<void> {
  try {
    await deps.storage.db
      .deleteFrom('tables')
      .where('id', '=', table.id)
      .where('account_id', '=', table.account_id)
      .execute();
  } catch (err) {
    if (isForeignKeyViolation(err)) {
      throw conflict(`Table ${table.name} is still used by bulk imports or jobs; delete those first.`);
    }
    throw err;
  }
  await dropDataTableInWorker(deps, database, table.name);
}
