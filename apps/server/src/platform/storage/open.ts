import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrateStorage } from './migrate';
import { openPostgresStorage, type PostgresStorage } from './postgres';
import { openSqliteStorage, type SqliteStorage } from './sqlite';

export type OpenedStorage = SqliteStorage | PostgresStorage;

/** Where the control plane lives: `SVC_DATABASE_URL` (PostgreSQL) when set, else the data folder's SQLite file. */
export type StorageTarget = { backend: 'sqlite'; file: string } | { backend: 'postgres'; url: string };

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
    mkdirSync(join(target.file, '..'), { recursive: true });
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
