import { type FolderChain, permissionIn, requireFullControl } from '../folder-permissions/permissions';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { activationsOf } from './activationStore';
import { type FolderInfo, folderOf, type ParentSegmentInfo, parentSegmentOf } from './audiences';
import type { JourneyRow } from './store';
import { violation } from './validation';

/** Who may do what to a journey: the folder it lives in decides (folder-permissions). */

/** The journey's folder with its ancestors; a folder that has gone counts as a root of its own. */
export async function folderChainOf(deps: AppDeps, row: JourneyRow): Promise<FolderChain> {
  return (await folderOf(deps, row.account_id, row.folder_id)) ?? { id: row.folder_id, ancestorIds: [] };
}

export async function requireJourneyControl(
  deps: AppDeps,
  principal: Principal,
  row: JourneyRow,
  action: string,
): Promise<void> {
  await requireFullControl(deps.storage.db, principal, await folderChainOf(deps, row), action);
}

export async function canControlJourney(deps: AppDeps, principal: Principal, row: JourneyRow): Promise<boolean> {
  return (await permissionIn(deps.storage.db, principal, await folderChainOf(deps, row))) === 'full_control';
}

const FOLDER_PATH = 'relationships.parentFolder.data.id';

/** The folder a request names for a journey: it must exist and belong to the journey's parent segment. */
export async function folderForJourney(
  deps: AppDeps,
  accountId: number,
  folderId: string,
  parentSegment: ParentSegmentInfo,
): Promise<FolderInfo> {
  const folder = await folderOf(deps, accountId, folderId);
  if (!folder) {
    const v = violation(
      'journey.folder_unknown',
      `There is no folder ${folderId}; choose a folder of parent segment "${parentSegment.name}" (its root is ${parentSegment.rootFolderId}).`,
      FOLDER_PATH,
    );
    throw badRequest(v.message, { violations: [v] });
  }
  if (folder.parentSegmentId !== parentSegment.id) {
    const v = violation(
      'journey.folder_other_parent_segment',
      `Folder "${folder.name}" belongs to another parent segment; a journey lives in a folder of its own parent segment "${parentSegment.name}".`,
      FOLDER_PATH,
    );
    throw badRequest(v.message, { violations: [v] });
  }
  return folder;
}

/** The journey's parent segment; a 400 naming `audienceId` when it does not exist in the account. */
export async function parentSegmentFor(
  deps: AppDeps,
  accountId: number,
  audienceId: string | null,
): Promise<ParentSegmentInfo> {
  if (!audienceId) {
    const v = violation(
      'journey.audience_missing',
      'The journey does not say which parent segment it belongs to; set attributes.audienceId.',
      'audienceId',
    );
    throw badRequest(v.message, { violations: [v] });
  }
  const found = await parentSegmentOf(deps, accountId, audienceId);
  if (!found) {
    const v = violation(
      'journey.audience_unknown',
      `There is no parent segment ${audienceId} in this account; set audienceId to one of your parent segments.`,
      'audienceId',
    );
    throw badRequest(v.message, { violations: [v] });
  }
  return found;
}

export async function activationIdsOf(deps: AppDeps, row: JourneyRow): Promise<number[]> {
  return (await activationsOf(deps.storage.db, row.account_id, row.id)).map((a) => a.id);
}
