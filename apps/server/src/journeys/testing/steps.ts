/** Compact journey pieces for API tests, written as a client would send them (camelCase JSON). */

export const wait = (next: string | null, waitStep: unknown = 1, waitStepUnit = 'day') => ({
  type: 'WaitStep',
  waitStep,
  waitStepUnit,
  next,
});

export const act = (next: string | null, journeyActivationStepId: string | null = null) => ({
  type: 'Activation',
  name: 'Send',
  journeyActivationStepId,
  next,
});

export const end = () => ({ type: 'End' });

export const merge = (next: string | null) => ({ type: 'Merge', next });

/** A decision point; each path is [id, segmentId (null = excluded path), next]. */
export const decision = (...paths: Array<[string, string | null, string | null]>) => ({
  type: 'DecisionPoint',
  branches: paths.map(([id, segmentId, next]) => ({
    id,
    name: segmentId === null ? 'Everyone else' : `Path ${id}`,
    excludedPath: segmentId === null,
    segmentId,
    next,
  })),
});

/** An A/B test with a customized split; each variant is [id, percentage, next]; the first is the control. */
export const ab = (...variants: Array<[string, number, string | null]>) => ({
  type: 'ABTest',
  name: 'Test',
  customizedSplit: true,
  uniqueId: 'customer_id',
  variants: variants.map(([id, percentage, next], i) => ({
    id,
    name: i === 0 ? 'Control' : `V${i}`,
    percentage,
    next,
  })),
});

export interface StageInput {
  rootStep: string | null;
  steps: Record<string, unknown>;
  [key: string]: unknown;
}

export const stage = (
  entrySegment: string | null,
  rootStep: string | null,
  steps: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): StageInput => ({
  name: 'Stage',
  entryCriteria: { name: 'Entry', segmentId: entrySegment },
  steps,
  rootStep,
  ...extra,
});
