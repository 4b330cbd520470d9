import { join } from 'node:path';
import { makeDir } from '../fileModes';
import { migrateStorage } from './migrate';
import { openPostgresStorage, type PostgresStorage } from './postgres';
import { openSqliteStorage, type SqliteStorage } from './sqlite';
import type { StorageTarget } from './types';

export type OpenedStorage = SqliteStorage | PostgresStorage;

export function storageTarget(env: NodeJS.ProcessEnv, dataDir: string): StorageTarget {
  const url = env.SVC_DATABASE_URL?.trim();
  if (!url) return { backend: 'sqlite', file: join(dataDir, 'control.sqlite') };
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error('SVC_DATABASE_URL must be a postgres:// URL, e.g. postgres://svc:secret@db.internal:5432/svc.');
  }
  return { backend: 'postgres', url };
}

/** Opens the storage and brings its schema to the newest migration. */
export async function openStorage(target: StorageTarget): Promise<OpenedStorage> {
  if (target.backend === 'sqlite') {
    makeDir(join(target.file, '..'));
    const storage = openSqliteStorage(target.file);
    await migrateStorage(storage);
    return storage;
  }
  const storage = await openPostgresStorage(target.url);
  try {
    await migrateStorage(storage);
  } catch (err) {
    await storage.close();
    throw err;
  }
  return storage;
}

/**
 * A worker thread's own storage on the server's database, already migrated by the server: a SQLite
 * connection that waits long for the file's write lock, or a small PostgreSQL pool (each worker has one).
 */
export async function openWorkerStorage(target: StorageTarget): Promise<OpenedStorage> {
  if (target.backend === 'sqlite') {
    const storage = openSqliteStorage(target.file);
    // A worker may wait longer for the control database's lock than the request loop would: nobody waits on it.
    storage.handle.pragma('busy_timeout = 30000');
    return storage;
  }
  return openPostgresStorage(target.url, { max: WORKER_POOL_SIZE });
}

/** Connections per worker thread on PostgreSQL: one task at a time per lane, a few lanes at once. */
const WORKER_POOL_SIZE = 4;
