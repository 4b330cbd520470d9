import { migrations } from '../../migrations/index';
import { applySqliteMigration, type Migration } from '../db';
import type { PostgresStorage } from './postgres';
import type { SqliteStorage } from './sqlite';
import type { Storage } from './types';

/** Any number: the advisory lock two nodes take so only one of them migrates at a time. */
const MIGRATION_LOCK = 7_261_016;

function textFor(storage: Storage, m: Migration): string {
  return storage.backend === 'postgres' ? m.postgres : m.sqlite;
}

/**
 * Applies the numbered migrations not yet recorded in `schema_migrations`, in order, each in its own
 * transaction with its record. On PostgreSQL an advisory lock serialises nodes starting together.
 * Returns the versions applied.
 */
export async function migrateStorage(
  storage: SqliteStorage | PostgresStorage,
  list: readonly Migration[] = migrations,
): Promise<number[]> {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  if (storage.backend === 'sqlite') {
    const db = storage.handle;
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const done = new Set(
      (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
    );
    const applied: number[] = [];
    for (const m of sorted) {
      if (done.has(m.version)) continue;
      applySqliteMigration(db, m);
      applied.push(m.version);
    }
    return applied;
  }
  const client = await storage.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    const done = new Set(
      (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) =>
        Number(r.version),
      ),
    );
    const applied: number[] = [];
    for (const m of sorted) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        const text = textFor(storage, m);
        // Without parameters pg sends the simple protocol: one call runs a multi-statement text.
        if (text.trim()) await client.query(text);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          m.version,
          m.name,
          Date.now(),
        ]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${m.version} (${m.name}) failed on PostgreSQL: ${(err as Error).message}`);
      }
      applied.push(m.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}
