import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db';
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

/** The SQLite connection under a storage, for the code still written against it directly. */
export function sqliteHandleOf(storage: OpenedStorage): Db {
  if (storage.backend === 'sqlite') return storage.handle;
  return new Proxy({} as Db, {
    get(_target, property) {
      throw new Error(
        `Code still on the SQLite connection (db.${String(property)}) ran on the PostgreSQL backend: move it to deps.storage.`,
      );
    },
  });
}
