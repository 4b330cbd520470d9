import type { FolderEntry, JourneySummary } from '@svc/contracts';
import { segmentReferences } from '@svc/journey';
import type { SegmentUsageProvider } from '../audiences';
import type { AppDeps } from '../platform/context';
import type { Executor } from '../platform/storage';
import { type JourneyListRow, type JourneyRow, journeysInFolders } from './store';
import { journeyOfRow } from './wire';

/**
 * What journeys tell the audiences feature: the journeys in folders (for `GET /entities/by-folder/:id`)
 * and which journeys name a segment (so a segment in use is not deleted from under them).
 */

export function journeySummaryOf(row: JourneyListRow): JourneySummary {
  const j = journeyOfRow(row);
  return {
    id: String(row.id),
    type: 'journey',
    attributes: {
      name: j.name,
      description: j.description,
      audienceId: row.parent_segment_id,
      state: j.state,
      paused: j.paused,
      createdAt: j.createdAt as string,
      updatedAt: j.updatedAt as string,
      launchedAt: j.launchedAt ?? null,
      pausedAt: j.pausedAt ?? null,
      createdByName: row.created_by_name,
    },
    relationships: { parentFolder: { data: { id: row.folder_id, type: 'folder-segment' } } },
  };
}

function journeysOfParentSegment(ex: Executor, accountId: number, parentSegmentId: string): Promise<JourneyRow[]> {
  return ex
    .selectFrom('journeys')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('parent_segment_id', '=', parentSegmentId)
    .orderBy('id')
    .$narrowType<Pick<JourneyRow, 'state'>>()
    .execute();
}

/** Who among `rows` names the segment, described for the refusal to delete it, e.g. `journey 12 ("Welcome")`. */
function usersOf(rows: JourneyRow[], segmentId: number | string): string[] {
  return rows
    .filter((row) => segmentReferences(journeyOfRow(row)).includes(String(segmentId)))
    .map((row) => `journey ${row.id} ("${row.name}")`);
}

/** The journeys that name the segment, described for the refusal to delete it. */
async function journeysUsingSegment(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: number | string,
  segmentId: number | string,
): Promise<string[]> {
  return usersOf(await journeysOfParentSegment(deps.storage.db, accountId, String(parentSegmentId)), segmentId);
}

/** The journeys in some folders of an account, as folder entries (the folders feature lists them). */
export function journeyFolderEntries(deps: AppDeps) {
  return async (accountId: number, folderIds: number[]): Promise<FolderEntry[]> =>
    (await journeysInFolders(deps.storage.db, accountId, folderIds.map(String))).map(
      (row): FolderEntry => journeySummaryOf(row),
    );
}

/** The journeys that name a segment (audiences refuses to delete a segment in use). */
export function journeySegmentUsage(deps: AppDeps): SegmentUsageProvider {
  return (accountId, parentSegmentId, segmentId) => journeysUsingSegment(deps, accountId, parentSegmentId, segmentId);
}
