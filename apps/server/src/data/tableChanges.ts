import type { AppDeps } from '../platform/context';
import { conflict } from '../platform/errors';
import { type Executor, isUniqueViolation, transaction } from '../platform/storage';
import { type DatabaseRow, findTable, type TableRow } from './catalog';
import { dataPlane, onDuck } from './dataPlane';
import { moveTableInWorker } from './fileWrites';
import { holdingLanes } from './laneHold';
import { SWAP_NAME } from './plane';
import { refreshCatalog } from './tableStore';

/**
 * Changes to a table as a whole, run as background tasks in the database's lane (data/tasks.ts), after the
 * writes queued before them: swapping two tables' names (`td table:swap`, and `td table:rename`, which
 * creates the new name, swaps and deletes the old one) and moving a table to another database. Each table
 * keeps its catalog row (id, creation time, expire_days, include_v) with its data; only names and the
 * database change.
 */

/** Exchanges the names of two tables of one database, data and catalog alike. */
export async function swapTables(deps: AppDeps, database: DatabaseRow, a: TableRow, b: TableRow): Promise<void> {
  const now = deps.clock.now().getTime();
  await dataPlane(deps).swapTables(database, a, b, (control) =>
    transaction(control, async (tx) => {
      // Through a name no customer table can have, since (database, name) is unique at every step.
      for (const [row, name] of [
        [a, SWAP_NAME],
        [b, a.name],
        [a, b.name],
      ] as const) {
        await tx
          .updateTable('tables')
          .set({ name, updated_at: now })
          .where('id', '=', row.id)
          .where('account_id', '=', row.account_id)
          .execute();
      }
    }),
  );
  // Writes that raced the swap were counted under the old names: the figures are copied again by name.
  await refreshCatalog(deps, database);
}

/** Moves a table to another database of the account under the same name; 409 when the name is taken there. */
export async function moveTable(deps: AppDeps, from: DatabaseRow, to: DatabaseRow, table: TableRow): Promise<void> {
  const now = deps.clock.now().getTime();
  const move = async (control: Executor) => {
    try {
      const { numUpdatedRows } = await control
        .updateTable('tables')
        .set({ database_id: to.id, updated_at: now })
        .where('id', '=', table.id)
        .where('account_id', '=', table.account_id)
        .where('database_id', '=', from.id)
        .executeTakeFirst();
      if (Number(numUpdatedRows) !== 1) throw new Error(`The table "${table.name}" changed while it was being moved.`);
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(to, table.name);
      throw err;
    }
  };
  // Checked again here, in the lane, right before the copy replaces any leftover data of the name there.
  if (await findTable(deps.storage.db, to.account_id, to.id, table.name)) throw taken(to, table.name);
  await dataPlane(deps).moveTable(from, to, table, move);
  await refreshCatalog(deps, to);
}

/**
 * A move sent from the server: on PostgreSQL one task in the source's lane; on DuckDB, whose two
 * files have owners of their own, the move led from here while both databases' lanes are held (laneHold.ts),
 * its data steps sent to the owners (duckMove.ts).
 */
export function moveTableInBackground(
  deps: AppDeps,
  from: DatabaseRow,
  to: DatabaseRow,
  table: TableRow,
): Promise<void> {
  if (!onDuck(deps)) return moveTableInWorker(deps, from, to, table);
  return holdingLanes(deps, [from, to], () => moveTable(deps, from, to, table));
}

export function taken(database: DatabaseRow, name: string) {
  return conflict(
    `The database "${database.name}" already has a table named "${name}": delete or rename that one first.`,
  );
}
