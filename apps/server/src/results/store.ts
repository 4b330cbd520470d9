import type { Db } from '../platform/db';
import { conflict, notFound } from '../platform/errors';

/** The control database's result connections. Every query is scoped by account. */

export interface ResultRow {
  id: number;
  account_id: number;
  name: string;
  /** As given, credentials included; never sent to a client unmasked. */
  url: string;
  created_at: number;
  updated_at: number;
}

export function listResults(db: Db, accountId: number): ResultRow[] {
  return db
    .prepare('SELECT * FROM result_connections WHERE account_id = ? ORDER BY name')
    .all(accountId) as ResultRow[];
}

export function insertResult(db: Db, accountId: number, name: string, url: string, now: number): void {
  try {
    db.prepare(
      'INSERT INTO result_connections (account_id, name, url, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    ).run(accountId, name, url, now, now);
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw conflict(`A result connection named "${name}" already exists. Delete it first or choose another name.`);
    }
    throw err;
  }
}

export function deleteResult(db: Db, accountId: number, name: string): void {
  const r = db.prepare('DELETE FROM result_connections WHERE account_id = ? AND name = ?').run(accountId, name);
  if (r.changes === 0) throw notFound('result connection');
}
