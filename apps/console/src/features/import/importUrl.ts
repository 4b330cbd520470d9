import type { ImportTarget } from './pendingFiles';

const IMPORT_PATH = '/data/import';

/** The wizard's address, with the target database and table chosen in advance when given. */
export function importUrl(target: ImportTarget = {}): string {
  const params = new URLSearchParams();
  if (target.database) params.set('database', target.database);
  if (target.table) params.set('table', target.table);
  const query = params.toString();
  return query ? `${IMPORT_PATH}?${query}` : IMPORT_PATH;
}
