import { type FolderChain, requireFullControl } from '../folder-permissions';
import type { Principal } from '../platform/auth';
import type { Executor } from '../platform/storage';
import { ancestorIds, type FolderRow } from './store';

/**
 * Writes in a folder (sub-folders, segments) need Full Control there, the same rule journeys follow
 * (folder-permissions): administrators always have it; other users by their nearest grant; View gets 403.
 */

async function folderChain(db: Executor, folder: FolderRow): Promise<FolderChain> {
  return { id: String(folder.id), ancestorIds: (await ancestorIds(db, folder.account_id, folder.id)).map(String) };
}

/** 403 unless the caller has Full Control in the folder; `action` completes "you cannot …". */
export async function requireFolderControl(
  db: Executor,
  principal: Principal,
  folder: FolderRow,
  action: string,
): Promise<void> {
  await requireFullControl(db, principal, await folderChain(db, folder), action);
}
