import { findVariantByLocation } from '@svc/journey-engine';
import { registerVariantMembers } from '../audiences/lookup';
import { findJourneyRow } from '../journeys/store';
import { journeyOfRow } from '../journeys/wire';
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

/**
 * Keys of the profiles assigned to the A/B variant a rule 7 condition names (`location` is
 * `ab_test_<A/B test step id>_<variant id>`, see @svc/journey-engine). A profile stays in its variant
 * once assigned (`tense: intime`). An unknown journey, stage or location is a 400 saying which.
 */
export function variantProfileKeys(
  deps: AppDeps,
  accountId: number,
  ref: VariantRefInput,
  parentSegmentId?: number,
): string[] {
  const row = findJourneyRow(deps.db, accountId, String(ref.journeyId));
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
  return variantMembers(deps.db, accountId, row.id, found.stepId, found.variantId);
}

/** Lets segment rules of any parent segment count variant members (audiences/variantMembers.ts). */
export function registerVariantRules(deps: AppDeps): void {
  registerVariantMembers(deps, (accountId, parentSegmentId, ref) =>
    variantProfileKeys(deps, accountId, ref, parentSegmentId),
  );
}
