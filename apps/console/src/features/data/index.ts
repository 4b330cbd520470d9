/** What other areas may link to: the addresses of the data pages. */
export { formatCount, formatDuration } from './shared/format';
export { bulkLoadPath, tablePath } from './shared/paths';
