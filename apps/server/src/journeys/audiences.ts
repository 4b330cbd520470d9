import { findParentSegment, missingSegments } from '../audiences/lookupSync';
import type { AppDeps } from '../platform/context';

/**
 * What journeys need from the audiences feature, read only through its lookup module: the parent
 * segment (columns, root folder) and which segments exist. Folders: folder-permissions/folders.ts.
 */

export { type FolderInfo, folderOf } from '../folder-permissions/folders';

export interface ParentSegmentInfo {
  id: string;
  name: string;
  rootFolderId: string;
  /** Column names: the master key column and every attribute. */
  columns: string[];
}

export function parentSegmentOf(deps: AppDeps, accountId: number, id: string): ParentSegmentInfo | null {
  const found = findParentSegment(deps, accountId, id);
  if (!found) return null;
  return {
    id: found.id,
    name: found.name,
    rootFolderId: found.rootFolderId,
    columns: found.columns.map((c) => c.name),
  };
}

/** The subset of `segmentIds` that the parent segment does not have. */
export function unknownSegments(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string,
  segmentIds: ReadonlyArray<string>,
): string[] {
  return segmentIds.length === 0 ? [] : missingSegments(deps, accountId, parentSegmentId, [...segmentIds]);
}
