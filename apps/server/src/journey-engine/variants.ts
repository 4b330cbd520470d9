import { findVariantByLocation } from '@svc/journey-engine';
import { registerVariantMembers, type VariantMembersProvider } from '../audiences/lookup';
import { findJourneyRow, type JourneyRow, journeyOfRow } from '../journeys';
import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { variantMembers } from './store';

/** The `leftValue` of a spec rule 7 condition: an A/B variant of a journey stage. */
export interface VariantRefInput {
  journeyId: string | number;
  journeyStageId: string | number;
  location: string;
  tense?: string;
}

/** The variant a rule 7 condition names in the journey `row`; a 400 saying which part is unknown. */
function variantOf(row: JourneyRow | null, ref: VariantRefInput, parentSegmentId?: number) {
  if (!row) throw badRequest(`The segment rule names journey ${ref.journeyId}, which does not exist in this account.`);
  if (parentSegmentId !== undefined && String(row.parent_segment_id) !== String(parentSegmentId)) {
    throw badRequest(
      `The segment rule names journey ${row.id}, which belongs to parent segment ${row.parent_segment_id}, not ${parentSegmentId}; a variant condition counts profiles of the same parent segment.`,
    );
  }
  const journey = journeyOfRow(row);
  const stageId = String(ref.journeyStageId);
  if (!journey.journeyStages.some((s) => s.id === stageId)) {
    throw badRequest(`The segment rule names stage ${stageId}, which is not a stage of journey ${row.id}.`);
  }
  const found = findVariantByLocation(journey, stageId, ref.location);
  if (!found) {
    throw badRequest(
      `The segment rule's location "${ref.location}" names no A/B variant in stage ${stageId}; write it ab_test_<A/B test step id>_<variant id>.`,
    );
  }
  return { journeyId: row.id, stepId: found.stepId, variantId: found.variantId };
}

/**
 * Keys of the profiles assigned to the A/B variant a rule 7 condition names (`location` is
 * `ab_test_<A/B test step id>_<variant id>`, see @svc/journey-engine). A profile stays in its variant
 * once assigned (`tense: intime`). An unknown journey, stage or location is a 400 saying which.
 */
export async function variantProfileKeys(
  deps: AppDeps,
  accountId: number,
  ref: VariantRefInput,
  parentSegmentId?: number,
): Promise<string[]> {
  const row = await findJourneyRow(deps.storage.db, accountId, String(ref.journeyId));
  const found = variantOf(row, ref, parentSegmentId);
  return variantMembers(deps.storage.db, accountId, found.journeyId, found.stepId, found.variantId);
}

/**
 * Until the audiences feature awaits its providers (its own move to the storage layer, issue 16), its rule
 * compiler calls this one synchronously, which only SQLite can answer: there the rows are read at once
 * through its connection. On PostgreSQL the answer is the promise that feature then awaits. Once it awaits,
 * register `variantProfileKeys` itself and drop this.
 */
function variantMembersUntilAwaited(deps: AppDeps): VariantMembersProvider {
  return (accountId, parentSegmentId, ref) => {
    if (deps.storage.backend !== 'sqlite') {
      return variantProfileKeys(deps, accountId, ref, parentSegmentId) as unknown as string[];
    }
    const id = Number(ref.journeyId);
    const row = Number.isSafeInteger(id)
      ? (deps.db.prepare('SELECT * FROM journeys WHERE account_id = ? AND id = ?').get(accountId, id) as
          | JourneyRow
          | undefined)
      : undefined;
    const found = variantOf(row ?? null, ref, parentSegmentId);
    return deps.db
      .prepare(
        `SELECT profile_key FROM journey_ab_assignments
         WHERE account_id = ? AND journey_id = ? AND step_id = ? AND variant_id = ? ORDER BY profile_key`,
      )
      .pluck()
      .all(accountId, found.journeyId, found.stepId, found.variantId) as string[];
  };
}

/** Lets segment rules of any parent segment count variant members (audiences/variantMembers.ts). */
export function registerVariantRules(deps: AppDeps): void {
  registerVariantMembers(deps, variantMembersUntilAwaited(deps));
}
