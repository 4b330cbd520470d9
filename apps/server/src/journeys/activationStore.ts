import type { SyndicationParams } from '@svc/contracts';
import type { Db } from '../platform/db';
import { notFound } from '../platform/errors';

/** SQL of journey activations (journeyActivationSteps). Scoped by account and journey. */

export interface ActivationRow {
  id: number;
  account_id: number;
  journey_id: number;
  /** SyndicationParams as JSON. */
  params: string;
  created_by: number | null;
  updated_by: number | null;
  created_at: number;
  updated_at: number;
}

export function activationsOf(db: Db, accountId: number, journeyId: number): ActivationRow[] {
  return db
    .prepare('SELECT * FROM journey_activations WHERE account_id = ? AND journey_id = ? ORDER BY id')
    .all(accountId, journeyId) as ActivationRow[];
}

export function getActivationRow(db: Db, accountId: number, journeyId: number, id: string): ActivationRow {
  const n = Number(id);
  const row =
    Number.isSafeInteger(n) && n > 0
      ? (db
          .prepare('SELECT * FROM journey_activations WHERE account_id = ? AND journey_id = ? AND id = ?')
          .get(accountId, journeyId, n) as ActivationRow | undefined)
      : undefined;
  if (!row) throw notFound('activation');
  return row;
}

export function insertActivationRow(
  db: Db,
  a: { accountId: number; journeyId: number; params: SyndicationParams; userId: number; now: number },
): number {
  const result = db
    .prepare(
      `INSERT INTO journey_activations (account_id, journey_id, params, created_by, updated_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(a.accountId, a.journeyId, JSON.stringify(a.params), a.userId, a.userId, a.now, a.now);
  return Number(result.lastInsertRowid);
}

export function updateActivationRow(
  db: Db,
  row: ActivationRow,
  params: SyndicationParams,
  userId: number,
  now: number,
): void {
  db.prepare(
    'UPDATE journey_activations SET params = ?, updated_by = ?, updated_at = ? WHERE account_id = ? AND id = ?',
  ).run(JSON.stringify(params), userId, now, row.account_id, row.id);
}

export function deleteActivationRow(db: Db, row: ActivationRow): void {
  db.prepare('DELETE FROM journey_activations WHERE account_id = ? AND id = ?').run(row.account_id, row.id);
}

export function paramsOf(row: ActivationRow): SyndicationParams {
  return JSON.parse(row.params) as SyndicationParams;
}
