import { findVariantByLocation } from '@svc/journey-engine';
import type { VariantMembersProvider } from '../audiences';
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

/** Lets segment rules of any parent segment count variant members (audiences/variantMembers.ts). */
export function variantRuleMembers(deps: AppDeps): VariantMembersProvider {
  return (accountId, parentSegmentId, ref) => variantProfileKeys(deps, accountId, ref, parentSegmentId);
}
