import type { AppDeps } from '../platform/context';
import { work } from '../platform/work';
import type { DatabaseRow, TableRow } from './catalog';
import type { SchemaEntry } from './columns';
import { dataPlane, dataTaskOptions } from './dataPlane';

/**
 * The request loop's way to change a customer database's data: each change runs as a background task in
 * the database's lane (data/tasks.ts), after the writes queued before it, so no request waits on a file's
 * lock and a large DROP never stalls the server. On DuckDB the task runs in the file's owner worker; on PostgreSQL
 * in the server process (platform/work.ts), in the same lane order.
 */

/** Creates the database's data (its file, or its schema) when the database is created. */
export async function createDataDatabase(deps: AppDeps, database: DatabaseRow): Promise<void> {
  await dataPlane(deps).createDatabase(database);
}

export function createDataTableInWorker(deps: AppDeps, database: DatabaseRow, table: TableRow): Promise<void> {
  return work(deps).run('data.create-table', { database, table }, dataTaskOptions(deps, database));
}

export function dropDataTableInWorker(deps: AppDeps, database: DatabaseRow, name: string): Promise<void> {
  return work(deps).run('data.drop-table', { database, name }, dataTaskOptions(deps, database));
}

export function changeSchemaInWorker(
  deps: AppDeps,
  database: DatabaseRow,
  table: TableRow,
  schema: SchemaEntry[],
  mode: 'replace' | 'append',
): Promise<void> {
  return work(deps).run('data.change-schema', { database, table, schema, mode }, dataTaskOptions(deps, database));
}

export function swapTablesInWorker(deps: AppDeps, database: DatabaseRow, a: TableRow, b: TableRow): Promise<void> {
  return work(deps).run('data.swap-tables', { database, a, b }, dataTaskOptions(deps, database));
}

export function moveTableInWorker(deps: AppDeps, from: DatabaseRow, to: DatabaseRow, table: TableRow): Promise<void> {
  return work(deps).run('data.move-table', { from, to, table }, dataTaskOptions(deps, from));
}

export function appendRowsInWorker(
  deps: AppDeps,
  database: DatabaseRow,
  table: string,
  rows: Record<string, unknown>[],
  opts: { createTable?: boolean; replace?: boolean } = {},
): Promise<{ inserted: number }> {
  return work(deps).run(
    'data.append-rows',
    { database, table, rows, createTable: opts.createTable ?? false, replace: opts.replace ?? false },
    dataTaskOptions(deps, database),
  );
}

/**
 * Deletes a database's data (after its catalog rows are gone), in its lane after every write queued
 * before it. A DuckDB file is open only in its owner, which closes and deletes it.
 */
export async function deleteDataDatabase(deps: AppDeps, database: DatabaseRow): Promise<void> {
  await work(deps).run('data.delete-file', { database }, dataTaskOptions(deps, database));
}
