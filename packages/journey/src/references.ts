import type { Journey } from './journey';
import type { Step } from './steps/registry';

/**
 * What a journey refers to outside itself: segments of its parent segment and activations
 * (journeyActivationSteps). The server resolves these against storage to build the validation context,
 * and rewrites activation ids when it copies a journey.
 */

/** Every segment id the journey names (goal, entry criteria, milestones, exit criteria, decision paths), once each. */
export function segmentReferences(journey: Journey): string[] {
  const ids = new Set<string>();
  const add = (id: string | null | undefined) => {
    if (id) ids.add(id);
  };
  add(journey.goal?.segmentId);
  for (const stage of journey.journeyStages) {
    add(stage.entryCriteria?.segmentId);
    add(stage.milestone?.segmentId);
    for (const exit of stage.exitCriterias ?? []) add(exit.segmentId);
    for (const step of Object.values(stage.steps ?? {})) {
      if (step.type === 'DecisionPoint') for (const branch of step.branches) add(branch.segmentId);
    }
  }
  return [...ids];
}

export interface ActivationReference {
  stageIndex: number;
  stepId: string;
  activationId: string;
}

/** Every activation step that names an activation, in stage and step order. */
export function activationReferences(journey: Journey): ActivationReference[] {
  const found: ActivationReference[] = [];
  journey.journeyStages.forEach((stage, stageIndex) => {
    for (const [stepId, step] of Object.entries(stage.steps ?? {})) {
      if (step.type === 'Activation' && step.journeyActivationStepId) {
        found.push({ stageIndex, stepId, activationId: step.journeyActivationStepId });
      }
    }
  });
  return found;
}

/**
 * The journey with every activation step's activation id replaced by `map(id)` (e.g. to the copies made
 * when a journey is duplicated). Ids the map does not know (undefined) are left as they are.
 */
export function mapActivationIds(journey: Journey, map: (activationId: string) => string | undefined): Journey {
  const mapStep = (step: Step): Step => {
    if (step.type !== 'Activation' || !step.journeyActivationStepId) return step;
    const next = map(step.journeyActivationStepId);
    return next === undefined ? step : { ...step, journeyActivationStepId: next };
  };
  return {
    ...journey,
    journeyStages: journey.journeyStages.map((stage) => {
      if (!stage.steps) return stage;
      const steps: Record<string, Step> = {};
      for (const [id, step] of Object.entries(stage.steps)) steps[id] = mapStep(step);
      return { ...stage, steps };
    }),
  };
}
