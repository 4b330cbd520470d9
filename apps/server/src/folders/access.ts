import { type FolderChain, requireFullControl } from '../folder-permissions/permissions';
import type { Principal } from '../platform/auth';
import type { Db } from '../platform/db';
import { ancestorIds, type FolderRow } from './store';

/**
 * Writes in a folder (sub-folders, segments) need Full Control there, the same rule journeys follow
 * (folder-permissions): administrators always have it; other users by their nearest grant; View gets 403.
 */

export function folderChain(db: Db, folder: FolderRow): FolderChain {
  return { id: String(folder.id), ancestorIds: ancestorIds(db, folder.account_id, folder.id).map(String) };
}

/** 403 unless the caller has Full Control in the folder; `action` completes "you cannot …". */
export function requireFolderControl(db: Db, principal: Principal, folder: FolderRow, action: string): void {
  requireFullControl(db, principal, folderChain(db, folder), action);
}
