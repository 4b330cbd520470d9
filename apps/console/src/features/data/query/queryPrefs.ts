/**
 * What the query page keeps for a person between visits: the database and the engine last used. In this
 * browser's localStorage under a key per user id (like the recent queries), so a click on "Query" reopens
 * the database of the last query instead of the first one.
 */

export const ENGINES = ['presto', 'hive'] as const;
export type Engine = (typeof ENGINES)[number];

export interface QueryPrefs {
  database: string | null;
  engine: Engine;
}

export const queryPrefsKey = (userId: number) => `svc.data.query-prefs.v1.${userId}`;

export function loadQueryPrefs(storage: Pick<Storage, 'getItem'>, userId: number): QueryPrefs {
  try {
    const v = JSON.parse(storage.getItem(queryPrefsKey(userId)) ?? '{}') as Record<string, unknown>;
    return {
      database: typeof v.database === 'string' && v.database !== '' ? v.database : null,
      engine: (ENGINES as readonly unknown[]).includes(v.engine) ? (v.engine as Engine) : 'presto',
    };
  } catch {
    return { database: null, engine: 'presto' };
  }
}

/** Saves a change; a full or disabled storage only means the page forgets. */
export function saveQueryPrefs(storage: Storage, userId: number, change: Partial<QueryPrefs>): QueryPrefs {
  const next = { ...loadQueryPrefs(storage, userId), ...change };
  try {
    storage.setItem(queryPrefsKey(userId), JSON.stringify(next));
  } catch {
    // Quota or privacy mode: nothing to keep.
  }
  return next;
}

/** The database to open: the one named in the address, else the last used while it exists, else the first. */
export function databaseToOpen(named: string | null, last: string | null, existing: string[]): string | null {
  if (named !== null) return named;
  if (last !== null && existing.includes(last)) return last;
  return existing[0] ?? null;
}
