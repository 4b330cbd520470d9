import type { AppDeps } from '../platform/context';
import { forbidden } from '../platform/errors';
import { type Executor, one, run, sql, transaction } from '../platform/storage';

/** The beta switch: off for every account until an administrator turns it on (PUT /v1/dwh/feature). */

export async function featureEnabled(deps: AppDeps, accountId: number): Promise<boolean> {
  const row = await one<{ enabled: number }>(
    deps.storage.db,
    sql`SELECT enabled FROM dwh_features WHERE account_id = ${accountId}`,
  );
  return Number(row?.enabled) === 1;
}

/** Switches the feature; `record` writes the audit entry in the same transaction. */
export async function setFeature(
  deps: AppDeps,
  accountId: number,
  enabled: boolean,
  record: (tx: Executor) => Promise<void> = async () => {},
): Promise<void> {
  await transaction(deps.storage, async (tx) => {
    await run(
      tx,
      sql`INSERT INTO dwh_features (account_id, enabled, updated_at) VALUES (${accountId}, ${enabled ? 1 : 0}, ${deps.clock.now().getTime()})
          ON CONFLICT (account_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
    );
    await record(tx);
  });
}

export async function requireFeature(deps: AppDeps, accountId: number): Promise<void> {
  if (!(await featureEnabled(deps, accountId))) {
    throw forbidden(
      'Data-warehouse sync (beta) is not enabled for this account. An administrator can turn it on in the console (Warehouse sync) or with PUT /v1/dwh/feature {"enabled": true}.',
    );
  }
}
