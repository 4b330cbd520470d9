import type { DatabaseRow } from '../data';
import { type PackedBatch, unpackBatch, writeBatches } from '../data';
import type { TaskContext } from '../platform/workerRuntime';
import { type ImportArgs, importRecords } from './tableImport';

/**
 * One group commit: the batches of one database, written by a background task (a worker thread) in one data
 * transaction.
 */
export interface IngestWrite {
  database: DatabaseRow;
  /** Packed for the trip to the worker (data/recordPack.ts). */
  batches: PackedBatch[];
}

export const ingestTasks = {
  'ingest.write': (ctx: TaskContext, w: IngestWrite) => writeBatches(ctx.deps, w.database, w.batches.map(unpackBatch)),
  /** One streaming import (PUT /v3/table/import…): decoded, checked and written in the database's lane. */
  'ingest.import': (ctx: TaskContext, a: ImportArgs) => importRecords(ctx.deps, a),
};
