/**
 * What other features use of the data feature: the catalog (databases, tables), the record rules, the
 * writes that keep figures true, and where a database's rows live for readers that go to them directly
 * (query jobs, parent segment builds): its SQLite file, or its PostgreSQL schema and table identifiers.
 */

export { pgIdentifier } from '../platform/storage';
export {
  checkWritableTable,
  createTableRow,
  type DatabaseRow,
  databaseFile,
  findDatabase,
  findTable,
  listDatabases,
  listTables,
  requireDatabase,
  requireTable,
  type TableRow,
} from './catalog';
export { CATALOG_CACHE_MS, databaseForWrite, forgetDatabase } from './catalogCache';
export { columnNameForKey, inferType, type SchemaEntry } from './columns';
export { dataLane } from './dataFiles';
export { dataPlane } from './dataPlane';
export {
  type DerivedBuild,
  type DerivedSetRef,
  type DerivedSets,
  type DerivedSource,
  derivedSets,
} from './derived';
export { appendRowsInWorker } from './fileWrites';
export { dataLocation } from './location';
export type { DataPlane, DataTx, MergeResult, Meta, PreparedRecord } from './plane';
export { postgresType } from './postgresPlane';
export { type ColumnSummary, mergeSummaries, type RowBlock } from './rowBlocks';
export { derivedFile } from './sqliteDerived';
export {
  appendRows,
  changeSchema,
  createDataTable,
  dropDataTable,
  prepareRecord,
  refreshCatalog,
  type TableBatch,
  tableLimits,
  tailRows,
  validTime,
  writeBatches,
} from './tableStore';
export { deleteTable } from './tables';
