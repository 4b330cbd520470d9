import type { AppDeps } from '../platform/context';
import { work } from '../platform/work';
import type { DatabaseRow, TableRow } from './catalog';
import type { SchemaEntry } from './columns';
import { closeDataFile, dataLane } from './dataFiles';

/**
 * The request loop's way to change a customer database's file: each change runs in a background worker
 * in the file's lane (data/tasks.ts), after the writes queued before it, so no request waits on the file's
 * lock and a large DROP never stalls the server.
 */

export function createDataTableInWorker(deps: AppDeps, database: DatabaseRow, table: TableRow): Promise<void> {
  return work(deps).run('data.create-table', { database, table }, { lane: dataLane(deps, database) });
}

export function dropDataTableInWorker(deps: AppDeps, database: DatabaseRow, name: string): Promise<void> {
  return work(deps).run('data.drop-table', { database, name }, { lane: dataLane(deps, database) });
}

export function changeSchemaInWorker(
  deps: AppDeps,
  database: DatabaseRow,
  table: TableRow,
  schema: SchemaEntry[],
  mode: 'replace' | 'append',
): Promise<void> {
  return work(deps).run('data.change-schema', { database, table, schema, mode }, { lane: dataLane(deps, database) });
}

export function appendRowsInWorker(
  deps: AppDeps,
  database: DatabaseRow,
  table: string,
  rows: Record<string, unknown>[],
  opts: { createTable?: boolean } = {},
): Promise<{ inserted: number }> {
  return work(deps).run(
    'data.append-rows',
    { database, table, rows, createTable: opts.createTable ?? false },
    { lane: dataLane(deps, database) },
  );
}

/** Deletes a database's file (after its catalog rows are gone): every connection to it closes first. */
export async function deleteDataFileInWorker(deps: AppDeps, database: DatabaseRow): Promise<void> {
  closeDataFile(deps, database);
  const pool = work(deps);
  await pool.broadcast('data.close-file', { database });
  await pool.run('data.delete-file', { database }, { lane: dataLane(deps, database) });
}
