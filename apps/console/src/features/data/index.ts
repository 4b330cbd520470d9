/** What other areas may link to: the addresses of the data pages. */
export { formatCount, formatDuration } from './shared/format';
export { bulkLoadPath, DATA_PATHS, databasePath, jobPath, queryPath, tablePath } from './shared/paths';
