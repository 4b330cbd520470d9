import type { AccountSettings, FolderPermission } from '@svc/contracts';
import { auditAction } from '../audit';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { notFound } from '../platform/errors';
import { type Executor, transaction } from '../platform/storage';

/**
 * Settings of the account that administrators change in the console. `default_folder_permission` is what
 * a member has on a folder where no grant on it or above it says otherwise (decision 0025): View unless
 * changed, so every new user starts read-only in every folder.
 */

export async function defaultFolderPermission(db: Executor, accountId: number): Promise<FolderPermission> {
  const row = await db
    .selectFrom('accounts')
    .select('default_folder_permission')
    .where('id', '=', accountId)
    .$narrowType<{ default_folder_permission: FolderPermission }>()
    .executeTakeFirst();
  if (!row) throw notFound('account');
  return row.default_folder_permission;
}

export async function accountSettings(db: Executor, accountId: number): Promise<AccountSettings> {
  return { defaultFolderPermission: await defaultFolderPermission(db, accountId) };
}

/** Changes the settings (administrators); each change is one audit entry with the old and new value. */
export async function changeAccountSettings(
  deps: AppDeps,
  p: Principal,
  change: Partial<AccountSettings>,
): Promise<AccountSettings> {
  requireAdmin(p);
  const { db } = deps.storage;
  const before = await accountSettings(db, p.accountId);
  const next = change.defaultFolderPermission;
  if (next !== undefined && next !== before.defaultFolderPermission) {
    await transaction(deps.storage, async (tx) => {
      await tx.updateTable('accounts').set({ default_folder_permission: next }).where('id', '=', p.accountId).execute();
      const details = { setting: 'default_folder_permission', from: before.defaultFolderPermission, to: next };
      await auditAction(deps, p, 'account.settings_change', { details }, tx);
    });
  }
  return accountSettings(db, p.accountId);
}
