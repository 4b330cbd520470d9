import type { AppDeps } from '../platform/context';
import { parseId } from '../platform/ids';
import { ancestorIds, folderRow } from './store';

/** A folder as other features see it. Ids are strings, as on the wire. */
export interface FolderInfo {
  id: string;
  /** Null for a parent segment's root folder. */
  parentId: string | null;
  parentSegmentId: string;
  name: string;
  /** Root first, not including the folder itself (for inherited permissions). */
  ancestorIds: string[];
}

/** The folder, or null when the account has none with this id (another account's folder is not found). */
export async function findFolder(
  deps: AppDeps,
  accountId: number,
  folderId: string | number,
): Promise<FolderInfo | null> {
  const n = parseId(folderId);
  const row = n === null ? null : await folderRow(deps.storage.db, accountId, n);
  if (!row) return null;
  return {
    id: String(row.id),
    parentId: row.parent_id === null ? null : String(row.parent_id),
    parentSegmentId: String(row.parent_segment_id),
    name: row.name,
    ancestorIds: (await ancestorIds(deps.storage.db, accountId, row.id)).map(String),
  };
}
