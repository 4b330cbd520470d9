import type { FolderEntry, JourneySummary } from '@svc/contracts';
import { segmentReferences } from '@svc/journey';
import { registerFolderEntries, registerSegmentUsage } from '../audiences/lookup';
import type { AppDeps } from '../platform/context';
import type { Db } from '../platform/db';
import { type JourneyRow, journeysInFolders } from './store';
import { journeyOfRow } from './wire';

/**
 * What journeys tell the audiences feature: the journeys in folders (for `GET /entities/by-folder/:id`)
 * and which journeys name a segment (so a segment in use is not deleted from under them).
 */

export function journeySummaryOf(row: JourneyRow): JourneySummary {
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
    },
    relationships: { parentFolder: { data: { id: row.folder_id, type: 'folder-segment' } } },
  };
}

function journeysOfParentSegment(db: Db, accountId: number, parentSegmentId: string): JourneyRow[] {
  return db
    .prepare('SELECT * FROM journeys WHERE account_id = ? AND parent_segment_id = ? ORDER BY id')
    .all(accountId, parentSegmentId) as JourneyRow[];
}

export function registerJourneyProviders(deps: AppDeps): void {
  registerFolderEntries(deps, 'journey', (accountId, folderIds) =>
    journeysInFolders(deps.db, accountId, folderIds.map(String)).map((row): FolderEntry => journeySummaryOf(row)),
  );
  registerSegmentUsage(deps, (accountId, parentSegmentId, segmentId) =>
    journeysOfParentSegment(deps.db, accountId, String(parentSegmentId))
      .filter((row) => segmentReferences(journeyOfRow(row)).includes(String(segmentId)))
      .map((row) => `journey ${row.id} ("${row.name}")`),
  );
}
