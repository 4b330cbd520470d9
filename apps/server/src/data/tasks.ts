import type { TaskContext } from '../platform/workerRuntime';
import type { DatabaseRow, TableRow } from './catalog';
import type { SchemaEntry } from './columns';
import { closeDataFile, deleteDataFile } from './dataFiles';
import { appendRows, changeSchema, createDataTable, dropDataTable } from './tableStore';

/** Writes to customer database files, run by background workers in the file's lane (fileWrites.ts). */

export interface TableArgs {
  database: DatabaseRow;
  table: TableRow;
}

export const dataTasks = {
  'data.create-table': (ctx: TaskContext, a: TableArgs) => createDataTable(ctx.deps, a.database, a.table),
  'data.drop-table': (ctx: TaskContext, a: { database: DatabaseRow; name: string }) =>
    dropDataTable(ctx.deps, a.database, a.name),
  'data.change-schema': (ctx: TaskContext, a: TableArgs & { schema: SchemaEntry[]; mode: 'replace' | 'append' }) =>
    changeSchema(ctx.deps, a.database, a.table, a.schema, a.mode),
  'data.append-rows': (
    ctx: TaskContext,
    a: { database: DatabaseRow; table: string; rows: Record<string, unknown>[]; createTable: boolean },
  ) => appendRows(ctx.deps, a.database, a.table, a.rows, { createTable: a.createTable }),
  /** Deletes the file; run in its lane, after every write queued before it. */
  'data.delete-file': (ctx: TaskContext, a: { database: DatabaseRow }) => deleteDataFile(ctx.deps, a.database),
  /** Every worker closes its connection to a file about to be deleted. */
  'data.close-file': (ctx: TaskContext, a: { database: DatabaseRow }) => closeDataFile(ctx.deps, a.database),
};
