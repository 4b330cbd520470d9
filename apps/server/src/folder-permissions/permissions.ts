import type { FolderPermission } from '@svc/contracts';
import { defaultFolderPermission } from '../accounts/settings';
import type { Principal } from '../platform/auth';
import { forbidden } from '../platform/errors';
import { type Executor, many, run, sql, transaction } from '../platform/storage';

/**
 * Folder permissions for journeys (spec, Authentication 7). A user has Full Control or View on a folder.
 *
 * - Administrators always have Full Control.
 * - Otherwise the user's grant on the folder itself decides; without one, the grant on the nearest
 *   ancestor (grants are inherited by sub-folders, and a grant on a sub-folder narrows or widens what the
 *   parent gives); without any grant, the account's default folder permission (View unless an
 *   administrator changed it). See docs/decisions/0012-journey-folder-permissions.md and 0025.
 */

/** A folder and its ancestors, the folder's parent first. */
export interface FolderChain {
  id: string;
  /** Root first, as the audiences lookup gives them. */
  ancestorIds: ReadonlyArray<string>;
}

export interface GrantRow {
  account_id: number;
  folder_id: string;
  user_id: number;
  permission: FolderPermission;
  granted_by: number | null;
  granted_at: number;
}

/** The folder's own grants, then its ancestors' nearest first. */
export async function grantsAlong(db: Executor, accountId: number, chain: FolderChain): Promise<GrantRow[]> {
  const ids = [chain.id, ...[...chain.ancestorIds].reverse()];
  const rows = await many<GrantRow>(
    db,
    sql`SELECT * FROM folder_permissions WHERE account_id = ${accountId} AND folder_id IN (${sql.join(ids)})`,
  );
  const rank = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => (rank.get(a.folder_id) ?? 0) - (rank.get(b.folder_id) ?? 0) || a.user_id - b.user_id);
}

/** What the user may do in the folder. */
export async function permissionIn(db: Executor, principal: Principal, chain: FolderChain): Promise<FolderPermission> {
  if (principal.administrator) return 'full_control';
  const own = (await grantsAlong(db, principal.accountId, chain)).find((g) => g.user_id === principal.userId);
  return own?.permission ?? (await defaultFolderPermission(db, principal.accountId));
}

/** 403 unless the caller has Full Control in the folder; `action` completes "You cannot … here". */
export async function requireFullControl(
  db: Executor,
  principal: Principal,
  chain: FolderChain,
  action: string,
): Promise<void> {
  if ((await permissionIn(db, principal, chain)) === 'full_control') return;
  throw forbidden(
    `You have View permission on this folder, so you cannot ${action}. Ask an administrator for Full Control on the folder.`,
  );
}

/**
 * Whoever creates a parent segment gets Full Control on its root folder, so they can work in what they
 * made whatever the account's default (issue 20). Kept if they already had a grant there.
 */
export async function grantCreatorFullControl(
  db: Executor,
  principal: Principal,
  rootFolderId: string,
  now: number,
): Promise<boolean> {
  const added = await run(
    db,
    sql`INSERT INTO folder_permissions (account_id, folder_id, user_id, permission, granted_by, granted_at)
        VALUES (${principal.accountId}, ${rootFolderId}, ${principal.userId}, 'full_control', ${principal.userId}, ${now})
        ON CONFLICT (account_id, folder_id, user_id) DO NOTHING`,
  );
  return added > 0;
}

/** Replaces every grant made on the folder itself (inherited ones are untouched). */
export async function replaceGrants(
  db: Executor,
  accountId: number,
  folderId: string,
  grants: ReadonlyArray<{ userId: number; permission: FolderPermission }>,
  grantedBy: number,
  now: number,
): Promise<void> {
  await transaction(db, async (tx) => {
    await run(tx, sql`DELETE FROM folder_permissions WHERE account_id = ${accountId} AND folder_id = ${folderId}`);
    for (const g of grants) {
      await run(
        tx,
        sql`INSERT INTO folder_permissions (account_id, folder_id, user_id, permission, granted_by, granted_at)
            VALUES (${accountId}, ${folderId}, ${g.userId}, ${g.permission}, ${grantedBy}, ${now})`,
      );
    }
  });
}

/**
 * Forgets every grant made on the given folders. Folder ids are reused (`folders.id` has no AUTOINCREMENT),
 * so grants must go with their folder, or a later folder with the same id would inherit them.
 */
export async function deleteGrantsOn(
  db: Executor,
  accountId: number,
  folderIds: ReadonlyArray<number | string>,
): Promise<void> {
  if (folderIds.length === 0) return;
  await run(
    db,
    sql`DELETE FROM folder_permissions
         WHERE account_id = ${accountId} AND folder_id IN (${sql.join(folderIds.map(String))})`,
  );
}
