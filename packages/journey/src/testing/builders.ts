import type { Journey, Stage } from '../journey';
import { normalizeJourney } from '../normalize';
import type { ABTestStep } from '../steps/ab-test';
import type { ActivationStep } from '../steps/activation';
import type { DecisionPointStep } from '../steps/decision-point';
import type { EndStep } from '../steps/end';
import type { MergeStep } from '../steps/merge';
import type { Step } from '../steps/registry';
import type { WaitStep } from '../steps/wait-step';

/** Small builders for readable test journeys. Ids are whatever the test names them. */

export const wait = (next: string | null, days = 1): WaitStep => ({
  type: 'WaitStep',
  waitStep: days,
  waitStepUnit: 'day',
  next,
});

export const activation = (next: string | null, activationId: string | null = '901'): ActivationStep => ({
  type: 'Activation',
  name: 'Send',
  journeyActivationStepId: activationId,
  next,
});

export const merge = (next: string | null): MergeStep => ({ type: 'Merge', next });

export const end = (): EndStep => ({ type: 'End' });

/** A decision point; each path is [id, segmentId (null = excluded path), next]. */
export const decision = (...paths: Array<[string, string | null, string | null]>): DecisionPointStep => ({
  type: 'DecisionPoint',
  name: 'Decide',
  branches: paths.map(([id, segmentId, next]) => ({
    id,
    name: segmentId === null ? 'Excluded profiles' : `Segment ${segmentId}`,
    description: null,
    excludedPath: segmentId === null,
    segmentId,
    next,
  })),
});

/** An A/B test with a customized split; each variant is [id, percentage, next]; the first is the control. */
export const abTest = (...variants: Array<[string, number, string | null]>): ABTestStep => ({
  type: 'ABTest',
  name: 'Test',
  customizedSplit: true,
  uniqueId: 'customer_id',
  variants: variants.map(([id, percentage, next], i) => ({
    id,
    name: i === 0 ? 'Control' : `Variant ${i}`,
    percentage,
    next,
  })),
});

export function stage(rootStep: string | null, steps: Record<string, Step>, extra: Partial<Stage> = {}): Stage {
  return {
    name: 'Stage',
    description: null,
    entryCriteria: { name: 'Entry', segmentId: '301', description: null },
    milestone: null,
    exitCriterias: null,
    steps: Object.keys(steps).length === 0 ? null : steps,
    rootStep,
    ...extra,
  };
}

export function journey(...stages: Stage[]): Journey {
  return normalizeJourney({ name: 'Journey', audienceId: '5732', journeyStages: stages });
}

/** A context matching the fixtures' parent segment. */
export const context = {
  segmentIds: ['301', '302', '303', '304', '305', '306', '307', '310'],
  columns: ['customer_id', 'email'],
  activationIds: ['901', '902', '903'],
};

export function codes(violations: ReadonlyArray<{ code: string }>): string[] {
  return violations.map((v) => v.code);
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
