/** Result connections as other features use them (query and journey outputs): lookups, and URLs with secrets masked. */
export { maskUrl } from './maskUrl';
export { findResult, insertResult, listResults } from './store';
