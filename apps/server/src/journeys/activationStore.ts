import { type SyndicationParams, syndicationParams } from '@svc/contracts';
import { notFound } from '../platform/errors';
import { type Executor, insertId, many, one, run, sql } from '../platform/storage';
import { parseStored } from '../platform/storedJson';

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

export function activationsOf(ex: Executor, accountId: number, journeyId: number): Promise<ActivationRow[]> {
  return many<ActivationRow>(
    ex,
    sql`SELECT * FROM journey_activations WHERE account_id = ${accountId} AND journey_id = ${journeyId} ORDER BY id`,
  );
}

export async function getActivationRow(
  ex: Executor,
  accountId: number,
  journeyId: number,
  id: string,
): Promise<ActivationRow> {
  const n = Number(id);
  const row =
    Number.isSafeInteger(n) && n > 0
      ? await one<ActivationRow>(
          ex,
          sql`SELECT * FROM journey_activations WHERE account_id = ${accountId} AND journey_id = ${journeyId}
              AND id = ${n}`,
        )
      : undefined;
  if (!row) throw notFound('activation');
  return row;
}

export function insertActivationRow(
  ex: Executor,
  a: { accountId: number; journeyId: number; params: SyndicationParams; userId: number; now: number },
): Promise<number> {
  return insertId(
    ex,
    sql`INSERT INTO journey_activations (account_id, journey_id, params, created_by, updated_by, created_at,
          updated_at)
        VALUES (${a.accountId}, ${a.journeyId}, ${JSON.stringify(a.params)}, ${a.userId}, ${a.userId}, ${a.now},
          ${a.now})
        RETURNING id`,
  );
}

export async function updateActivationRow(
  ex: Executor,
  row: ActivationRow,
  params: SyndicationParams,
  userId: number,
  now: number,
): Promise<void> {
  await run(
    ex,
    sql`UPDATE journey_activations SET params = ${JSON.stringify(params)}, updated_by = ${userId}, updated_at = ${now}
        WHERE account_id = ${row.account_id} AND id = ${row.id}`,
  );
}

export async function deleteActivationRow(ex: Executor, row: ActivationRow): Promise<void> {
  await run(ex, sql`DELETE FROM journey_activations WHERE account_id = ${row.account_id} AND id = ${row.id}`);
}

export function paramsOf(row: ActivationRow): SyndicationParams {
  return parseStored(syndicationParams, row.params, 'journey_activations.params');
}
