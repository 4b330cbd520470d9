/** Addresses of the data pages, in one place so links and routes agree. */

const enc = encodeURIComponent;

export const DATA_PATHS = {
  databases: '/data/databases',
  query: '/data/query',
  jobs: '/data/jobs',
  savedQueries: '/data/saved-queries',
  schedules: '/data/schedules',
  bulkLoads: '/data/bulk-loads',
  connections: '/data/connections',
} as const;

export const databasePath = (db: string) => `${DATA_PATHS.databases}/${enc(db)}`;
export const tablePath = (db: string, table: string) => `${databasePath(db)}/tables/${enc(table)}`;
export const jobPath = (id: string | number) => `${DATA_PATHS.jobs}/${enc(String(id))}`;
export const bulkLoadPath = (name: string) => `${DATA_PATHS.bulkLoads}/${enc(name)}`;

/** The query editor, with the database (and a table to start from) chosen, or a job's query reopened. */
export function queryPath(target: { database?: string; table?: string; job?: string; saved?: string } = {}): string {
  const params = new URLSearchParams();
  if (target.saved) params.set('saved', target.saved);
  if (target.database) params.set('database', target.database);
  if (target.table) params.set('table', target.table);
  if (target.job) params.set('job', target.job);
  const q = params.toString();
  return q ? `${DATA_PATHS.query}?${q}` : DATA_PATHS.query;
}

/** A saved query open in the editor, with a job of it shown below when given. */
export const savedQueryPath = (q: { id: string; database: string }, job?: string) =>
  queryPath({ saved: q.id, database: q.database, ...(job ? { job } : {}) });

/** A scheduled query's page: its runs. */
export const schedulePath = (name: string) => `${DATA_PATHS.schedules}/${enc(name)}`;
