import type { AppDeps } from '../platform/context';
import { forbidden } from '../platform/errors';

/** The beta switch: off for every account until an administrator turns it on (PUT /v1/dwh/feature). */

export function featureEnabled(deps: AppDeps, accountId: number): boolean {
  const row = deps.db.prepare('SELECT enabled FROM dwh_features WHERE account_id = ?').get(accountId) as
    | { enabled: number }
    | undefined;
  return row?.enabled === 1;
}

export function setFeature(deps: AppDeps, accountId: number, enabled: boolean): void {
  deps.db
    .prepare(
      `INSERT INTO dwh_features (account_id, enabled, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
    )
    .run(accountId, enabled ? 1 : 0, deps.clock.now().getTime());
}

export function requireFeature(deps: AppDeps, accountId: number): void {
  if (!featureEnabled(deps, accountId)) {
    throw forbidden(
      'Data-warehouse sync (beta) is not enabled for this account. An administrator can turn it on in the console (Warehouse sync) or with PUT /v1/dwh/feature {"enabled": true}.',
    );
  }
}
