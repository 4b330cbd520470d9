/**
 * Bulk loads as other features use them (the warehouse sync rides on them): the service and its ticks, the
 * source interface, the rows and their store, and the checks of a configuration.
 */
export { checkCron, checkFilters, checkSourceOptions, checkTimezone, readConfig } from './config';
export { bulkLoadsOfIntegration, requestResync, setBulkLoadConfig } from './integrationStore';
export { type BulkLoadService, nextFire } from './service';
export {
  type BulkLoadSource,
  type GuessedInput,
  type SourceColumn,
  SourceError,
  type SourceRequest,
  type SourceStream,
} from './source';
export {
  type BulkLoadRow,
  bulkLoadJobs,
  deleteBulkLoad,
  inFlightJob,
  insertBulkLoad,
  listBulkLoads,
  lockBulkLoad,
  updateBulkLoad,
} from './store';
