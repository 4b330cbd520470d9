import { findFolder } from '../audiences';
import type { AppDeps } from '../platform/context';
import type { FolderChain } from './permissions';

/** Folders as permissions need them, read through the audiences feature's lookup. Ids are strings, as on the wire. */

export interface FolderInfo extends FolderChain {
  parentSegmentId: string;
  name: string;
}

export async function folderOf(deps: AppDeps, accountId: number, id: string): Promise<FolderInfo | null> {
  const found = await findFolder(deps, accountId, id);
  if (!found) return null;
  return { id: found.id, parentSegmentId: found.parentSegmentId, name: found.name, ancestorIds: found.ancestorIds };
}
