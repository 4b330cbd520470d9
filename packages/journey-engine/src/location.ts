import type { Journey } from '@svc/journey';
import { stageKey } from './compile';

/**
 * The `location` of spec rule 7 (a segment rule selecting the profiles in one A/B variant):
 * `ab_test_<test step id>_<variant id>`. Both ids are the journey's own (UUIDs in practice), so the
 * string names the test and the variant without relying on their names, which can change in a draft.
 */
export function variantLocation(stepId: string, variantId: string): string {
  return `ab_test_${stepId}_${variantId}`;
}

export interface VariantRef {
  stageId: string;
  stepId: string;
  variantId: string;
  variantIndex: number;
}

/**
 * The A/B variant a location names in the stage with that id, or null. The location is matched against
 * every variant of the stage, so ids that contain underscores are read correctly.
 */
export function findVariantByLocation(journey: Journey, stageId: string | number, location: string): VariantRef | null {
  if (!location.startsWith('ab_test_')) return null;
  for (const [index, stage] of journey.journeyStages.entries()) {
    if (stageKey(stage, index) !== String(stageId)) continue;
    for (const [stepId, step] of Object.entries(stage.steps ?? {})) {
      if (step.type !== 'ABTest') continue;
      const variantIndex = step.variants.findIndex((v) => variantLocation(stepId, v.id) === location);
      const variant = step.variants[variantIndex];
      if (variant) return { stageId: String(stageId), stepId, variantId: variant.id, variantIndex };
    }
  }
  return null;
}
