import type { AppDeps } from '../platform/context';
import { forbidden } from '../platform/errors';
import { type Executor, transaction } from '../platform/storage';

/** The beta switch: off for every account until an administrator turns it on (PUT /v1/dwh/feature). */

export async function featureEnabled(deps: AppDeps, accountId: number): Promise<boolean> {
  const row = await deps.storage.db
    .selectFrom('dwh_features')
    .select('enabled')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
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
    await tx
      .insertInto('dwh_features')
      .values({ account_id: accountId, enabled: enabled ? 1 : 0, updated_at: deps.clock.now().getTime() })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet((eb) => ({
          enabled: eb.ref('excluded.enabled'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
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
