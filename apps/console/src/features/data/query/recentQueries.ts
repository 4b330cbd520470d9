/**
 * The queries a person ran lately, kept in this browser's localStorage under a key per user id, so two
 * people sharing a browser do not see each other's SQL. Newest first, no repeats, at most MAX_RECENT.
 */

export interface RecentQuery {
  database: string;
  query: string;
  /** Milliseconds since the epoch when it was last run. */
  at: number;
  jobId?: string;
}

export const MAX_RECENT = 30;
const MAX_QUERY_CHARS = 20_000;

export const recentQueriesKey = (userId: number) => `svc.data.recent-queries.v1.${userId}`;

function isRecent(value: unknown): value is RecentQuery {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.database === 'string' && typeof v.query === 'string' && typeof v.at === 'number';
}

export function loadRecentQueries(storage: Pick<Storage, 'getItem'>, userId: number): RecentQuery[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(recentQueriesKey(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isRecent).slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

/** Puts the query first (moving an identical earlier run up) and saves; a full storage is ignored. */
export function rememberQuery(
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  userId: number,
  entry: RecentQuery,
): RecentQuery[] {
  if (entry.query.trim() === '' || entry.query.length > MAX_QUERY_CHARS) return loadRecentQueries(storage, userId);
  const rest = loadRecentQueries(storage, userId).filter(
    (q) => !(q.database === entry.database && q.query.trim() === entry.query.trim()),
  );
  const next = [entry, ...rest].slice(0, MAX_RECENT);
  try {
    storage.setItem(recentQueriesKey(userId), JSON.stringify(next));
  } catch {
    // Quota exceeded or storage disabled: the list is a convenience, running the query matters more.
  }
  return next;
}

export function forgetRecentQueries(storage: Pick<Storage, 'removeItem'>, userId: number): void {
  storage.removeItem(recentQueriesKey(userId));
}
