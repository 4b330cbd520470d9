import { type Executor, run, sql } from '../platform/storage';
import type { BulkLoadRow } from './store';

/**
 * What the warehouse sync (dwh) reads and writes of the sessions it rides on, through index.ts: this feature
 * owns `bulk_loads`. Every query is scoped by account.
 */

/** The sessions an integration made, by id. */
export function bulkLoadsOfIntegration(ex: Executor, accountId: number, integrationId: number): Promise<BulkLoadRow[]> {
  return ex
    .selectFrom('bulk_loads')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('integration_id', '=', integrationId)
    .orderBy('id')
    .execute();
}

/** Replaces a session's stored configuration (its connection settings changed with their authentication). */
export async function setBulkLoadConfig(
  ex: Executor,
  session: Pick<BulkLoadRow, 'id' | 'account_id'>,
  config: Record<string, unknown>,
): Promise<void> {
  await ex
    .updateTable('bulk_loads')
    .set({ config_json: JSON.stringify(config) })
    .where('id', '=', session.id)
    .where('account_id', '=', session.account_id)
    .execute();
}

/** Asks for the session's next run to load from scratch (cleared by the run that does it). */
export async function requestResync(tx: Executor, session: Pick<BulkLoadRow, 'id' | 'account_id'>, now: number) {
  // Always a new value: a run clears only the request it saw, never one made while it ran (same millisecond too).
  await run(
    tx,
    sql`UPDATE bulk_loads SET resync_requested_at =
          CASE WHEN resync_requested_at IS NOT NULL AND resync_requested_at >= ${now} THEN resync_requested_at + 1 ELSE ${now} END
        WHERE id = ${session.id} AND account_id = ${session.account_id}`,
  );
}
