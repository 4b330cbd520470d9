/**
 * The storage layer (decision 0017): one async interface over embedded SQLite and PostgreSQL. Features use
 * `deps.storage.db` with the `sql` tag and these helpers; they never import a driver. Dialect specifics
 * live in sqlite.ts and postgres.ts, error codes in errors.ts.
 */
export { type RawBuilder, sql } from 'kysely';
export { customerSchema } from './customerData';
export {
  isForeignKeyViolation,
  isInvalidRegexp,
  isStorageUnavailable,
  isUniqueViolation,
  StorageUnavailable,
  unlessTaken,
} from './errors';
export { tryLock, withLock } from './locks';
export { type OpenedStorage, openStorage, openWorkerStorage, storageTarget } from './open';
export { copyRows, pgText } from './pgCopy';
export { type PostgresStorage, pgIdentifier } from './postgres';
export {
  appendRows,
  backendOf,
  dialectOf,
  insertId,
  insertRows,
  insertRowsInBatches,
  many,
  one,
  refreshPlannerStatistics,
  run,
  syncIdentity,
  transaction,
} from './query';
export { claimSlot, pruneSlots } from './slots';
export type { ColumnKind, DataExecutor, DataTables, Executor, Row, SqlDialect, Storage, StorageTarget } from './types';
