import { type SyndicationParams, syndicationParams } from '@svc/contracts';
import { notFound } from '../platform/errors';
import type { Executor, Row } from '../platform/storage';
import { parseStored } from '../platform/storedJson';

/** SQL of journey activations (journeyActivationSteps). Scoped by account and journey. */

/** A row of `journey_activations`; `params` is SyndicationParams as JSON (paramsOf). */
export type ActivationRow = Row<'journey_activations'>;

export function activationsOf(ex: Executor, accountId: number, journeyId: number): Promise<ActivationRow[]> {
  return ex
    .selectFrom('journey_activations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .orderBy('id')
    .execute();
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
      ? await ex
          .selectFrom('journey_activations')
          .selectAll()
          .where('account_id', '=', accountId)
          .where('journey_id', '=', journeyId)
          .where('id', '=', n)
          .executeTakeFirst()
      : undefined;
  if (!row) throw notFound('activation');
  return row;
}

export async function insertActivationRow(
  ex: Executor,
  a: { accountId: number; journeyId: number; params: SyndicationParams; userId: number; now: number },
): Promise<number> {
  const { id } = await ex
    .insertInto('journey_activations')
    .values({
      account_id: a.accountId,
      journey_id: a.journeyId,
      params: JSON.stringify(a.params),
      created_by: a.userId,
      updated_by: a.userId,
      created_at: a.now,
      updated_at: a.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateActivationRow(
  ex: Executor,
  row: ActivationRow,
  params: SyndicationParams,
  userId: number,
  now: number,
): Promise<void> {
  await ex
    .updateTable('journey_activations')
    .set({ params: JSON.stringify(params), updated_by: userId, updated_at: now })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .execute();
}

export async function deleteActivationRow(ex: Executor, row: ActivationRow): Promise<void> {
  await ex
    .deleteFrom('journey_activations')
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .execute();
}

export function paramsOf(row: ActivationRow): SyndicationParams {
  return parseStored(syndicationParams, row.params, 'journey_activations.params');
}
