import type { TaskContext } from '../platform/workerRuntime';
import type { DatabaseRow, TableRow } from './catalog';
import type { SchemaEntry } from './columns';
import { dataPlane } from './dataPlane';
import { type StagedTable, stageSources } from './duckDerived';
import { type MoveStep, moveStepHere } from './duckMove';
import { type DuckRead, readDuckHere } from './duckReads';
import { moveTable, swapTables } from './tableChanges';
import { appendRows, changeSchema, createDataTable, dropDataTable } from './tableStore';

/**
 * Writes to customer databases' data, run as background tasks in the database's lane (fileWrites.ts):
 * in worker threads on DuckDB (in the file's owner), in the server process on PostgreSQL. Each picks its data plane from
 * `ctx.deps.storage.backend`.
 */

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
    a: {
      database: DatabaseRow;
      table: string;
      rows: Record<string, unknown>[];
      createTable: boolean;
      replace: boolean;
    },
  ) => appendRows(ctx.deps, a.database, a.table, a.rows, { createTable: a.createTable, replace: a.replace }),
  'data.swap-tables': (ctx: TaskContext, a: { database: DatabaseRow; a: TableRow; b: TableRow }) =>
    swapTables(ctx.deps, a.database, a.a, a.b),
  /** PostgreSQL: runs in the source database's lane (DuckDB: tableChanges.moveTableInBackground). */
  'data.move-table': (ctx: TaskContext, a: { from: DatabaseRow; to: DatabaseRow; table: TableRow }) =>
    moveTable(ctx.deps, a.from, a.to, a.table),
  /** One step of a table's move between DuckDB files (duckMove.ts), in the owner of the step's file. */
  'data.duck-move-step': (ctx: TaskContext, a: MoveStep) => moveStepHere(ctx.deps.config.dataDir, a),
  /**
   * Holds the lane it is sent in (laneHold.ts): reports `held` once the lane's earlier tasks have ended, then
   * keeps the lane's later tasks waiting until its caller cancels it.
   */
  'data.hold-lane': (ctx: TaskContext) =>
    new Promise<void>((done) => {
      ctx.signal.addEventListener('abort', () => done(), { once: true });
      ctx.progress('held');
    }),
  /** Deletes the database's data (file or schema); run in its lane, after every write queued before it. */
  'data.delete-file': (ctx: TaskContext, a: { database: DatabaseRow }) =>
    dataPlane(ctx.deps).deleteDatabase(a.database),
  /** A read of a DuckDB file (duckReads.ts), sent to the worker that owns the file. */
  'data.duck-read': (ctx: TaskContext, a: { database: DatabaseRow; what: DuckRead }) =>
    readDuckHere(ctx.deps.config.dataDir, a.database, a.what),
  /** Copies a derived set build's source tables into its new file (duckDerived.ts), in the owner of their file. */
  'data.derived-stage': (ctx: TaskContext, a: { building: string; database: DatabaseRow; tables: StagedTable[] }) =>
    stageSources(ctx.deps.config.dataDir, a.building, a.database, a.tables),
};
