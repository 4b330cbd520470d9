import type { Journey } from '@svc/journey';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { canControlJourney } from './access';
import { activationsOf, paramsOf } from './activationStore';
import { findJourneyRow } from './store';
import { journeyOfRow } from './wire';

/**
 * The journeys feature's interface for other features (the journey engine). Import only this file.
 * Ids are strings; everything is scoped by account, and another account's journey is simply not found.
 */

export interface JourneyInfo {
  id: string;
  parentSegmentId: string;
  folderId: string;
  /** The journey's attributes in camelCase, as answered (stages carry their integer ids as strings). */
  journey: Journey;
}

export function findJourney(deps: AppDeps, accountId: number, journeyId: string): JourneyInfo | null {
  const row = findJourneyRow(deps.db, accountId, journeyId);
  if (!row) return null;
  return {
    id: String(row.id),
    parentSegmentId: row.parent_segment_id,
    folderId: row.folder_id,
    journey: journeyOfRow(row),
  };
}

/** Ids of launched journeys of the account (paused ones included), oldest first. */
export function launchedJourneyIds(deps: AppDeps, accountId: number): string[] {
  const rows = deps.db
    .prepare("SELECT id FROM journeys WHERE account_id = ? AND state = 'launched' ORDER BY id")
    .all(accountId) as { id: number }[];
  return rows.map((r) => String(r.id));
}

/** The journey's activations with their settings (what an activation step delivers to). */
export function journeyActivations(deps: AppDeps, accountId: number, journeyId: string) {
  const row = findJourneyRow(deps.db, accountId, journeyId);
  if (!row) return [];
  return activationsOf(deps.db, accountId, row.id).map((a) => ({ id: String(a.id), params: paramsOf(a) }));
}

/** Whether the caller has Full Control over the journey's folder (needed to run it or list its profiles). */
export async function canControl(deps: AppDeps, principal: Principal, journeyId: string): Promise<boolean> {
  const row = findJourneyRow(deps.db, principal.accountId, journeyId);
  return row !== null && (await canControlJourney(deps, principal, row));
}
