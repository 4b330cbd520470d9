import type { DemoRefs, Journey } from '@svc/journey';
import { largeJourneyAttributes, normalizeJourney, realisticJourneyAttributes } from '@svc/journey';

/** The package's demo journeys in their normalised form, for tests of the canvas model. */
export function realisticJourney(refs?: DemoRefs): Journey {
  return normalizeJourney(realisticJourneyAttributes(refs));
}

export function largeJourney(stages = 8, steps = 300): Journey {
  return normalizeJourney(largeJourneyAttributes(stages, steps));
}
