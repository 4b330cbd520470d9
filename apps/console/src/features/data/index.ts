/** What other areas may link to: the addresses of the data pages. */
export { DATA_PATHS, databasePath, jobPath, queryPath, tablePath } from './shared/paths';
