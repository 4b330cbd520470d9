import { findParentSegment, missingSegments } from '../audiences';
import type { AppDeps } from '../platform/context';

/**
 * What journeys need from the audiences feature, read only through its lookup module: the parent
 * segment (columns, root folder) and which segments exist. Folders: folder-permissions/folders.ts.
 * Its answers are awaited, so they may come from storage synchronously or not.
 */

export { type FolderInfo, folderOf } from '../folder-permissions/folders';

export interface ParentSegmentInfo {
  id: string;
  name: string;
  rootFolderId: string;
  /** Column names: the master key column and every attribute. */
  columns: string[];
}

export async function parentSegmentOf(deps: AppDeps, accountId: number, id: string): Promise<ParentSegmentInfo | null> {
  const found = await findParentSegment(deps, accountId, id);
  if (!found) return null;
  return {
    id: found.id,
    name: found.name,
    rootFolderId: found.rootFolderId,
    columns: found.columns.map((c) => c.name),
  };
}

/** The subset of `segmentIds` that the parent segment does not have. */
export async function unknownSegments(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string,
  segmentIds: ReadonlyArray<string>,
): Promise<string[]> {
  return segmentIds.length === 0 ? [] : await missingSegments(deps, accountId, parentSegmentId, [...segmentIds]);
}
