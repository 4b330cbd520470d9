/**
 * What other features use of the data feature: the catalog (databases, tables), the record rules, the
 * writes that keep figures true, and where a database's rows live for readers that go to them directly
 * (query jobs, parent segment builds): its DuckDB file, or its PostgreSQL schema and table identifiers.
 */

export { biggestTables, ingestedByDay } from './accountFigures';
export {
  checkWritableTable,
  createTableRow,
  type DatabaseRow,
  findDatabase,
  findTable,
  listDatabases,
  listTables,
  requireDatabase,
  requireTable,
  type TableRow,
  tablesIfDatabaseCurrent,
} from './catalog';
export { CATALOG_CACHE_MS, databaseForWrite, forgetDatabase } from './catalogCache';
export {
  checkSchemaColumnName,
  columnNameForKey,
  inferType,
  readAs,
  readMetaSchema,
  readTableSchema,
  type SchemaEntry,
} from './columns';
export { dataPlane, dataPlaneReady, dataTaskOptions, duckOwner, onDuck } from './dataPlane';
export {
  type DerivedBuild,
  type DerivedDialect,
  type DerivedSetRef,
  type DerivedSets,
  type DerivedSource,
  derivedSets,
} from './derived';
export { convertSqliteData } from './duckConvert';
export { closeDuckFiles, duckLimits, openDuckFileCount } from './duckFiles';
export { duckPlane, withDuckConnection } from './duckPlane';
export { duckThreadPoolShortfall } from './duckThreads';
export { appendRowsInWorker, createDataTableInWorker } from './fileWrites';
export type { DataTx, PreparedRecord } from './plane';
export { FIGURES as FIGURES_TABLE } from './postgresTables';
export { type PackedBatch, packBatch, unpackBatch } from './recordPack';
export { type ColumnSummary, columnSummary, mergeSummaries, type RowBlock, summaryGrowth } from './rowBlocks';
export { schemaGrowth } from './rows';
export {
  appendRows,
  prepareRecord,
  refreshCatalog,
  type TableBatch,
  tableLimits,
  tailRows,
  validTime,
  writeBatches,
} from './tableStore';
export { deleteTable } from './tables';
