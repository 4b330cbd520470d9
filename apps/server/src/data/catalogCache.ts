import type { AppDeps } from '../platform/context';
import { notFound } from '../platform/errors';
import { type DatabaseRow, findDatabase } from './catalog';

/**
 * The databases that ingestion (postback, records API) wrote to lately, per node (its services), by account and name: those
 * routes would otherwise read the same catalog row on every request. Only ingestion reads here, and its group
 * commit checks that the database still exists before every write (ingest/groupCommit.ts), so a stale entry can
 * never write into a deleted database. A deletion on this node forgets its entry at once; a database deleted and
 * made again under the same name on another node is seen here within `CATALOG_CACHE_MS` (until then its writes
 * answer 404, as for a missing database).
 */
export const CATALOG_CACHE_MS = 5_000;
const MAX_DATABASES = 10_000;

interface Entry {
  row: DatabaseRow;
  until: number;
}

/** The node's entries by `<account id>/<name>`; built by the composition root. */
export type CatalogCache = Map<string, Entry>;

declare module '../platform/context' {
  interface Services {
    /** The databases ingestion wrote to lately (data/catalogCache.ts). */
    catalogCache: CatalogCache;
  }
}

/** The app's cache; deps without services (no app) get an empty one, so every lookup reads the catalog. */
function entriesOf(deps: AppDeps): CatalogCache {
  return deps.services?.catalogCache ?? new Map();
}

/** The account's database of that name for a write, from the cache when fresh; 404 when there is none. */
export async function databaseForWrite(deps: AppDeps, accountId: number, name: string): Promise<DatabaseRow> {
  const entries = entriesOf(deps);
  const key = `${accountId}/${name}`;
  const now = deps.clock.now().getTime();
  const found = entries.get(key);
  if (found && now < found.until && now >= found.until - CATALOG_CACHE_MS) return found.row;
  const row = await findDatabase(deps.storage.db, accountId, name);
  if (!row) {
    entries.delete(key);
    throw notFound('database');
  }
  if (entries.size >= MAX_DATABASES) entries.delete(entries.keys().next().value as string);
  entries.set(key, { row, until: now + CATALOG_CACHE_MS });
  return row;
}

/** Forgets a database this node deleted (or found gone), so the next write looks it up again. */
export function forgetDatabase(deps: AppDeps, database: Pick<DatabaseRow, 'account_id' | 'name'>): void {
  entriesOf(deps).delete(`${database.account_id}/${database.name}`);
}
