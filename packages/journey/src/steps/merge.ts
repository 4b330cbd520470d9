import { z } from 'zod';
import type { StepKind } from './kind';
import { nextSchema, noViolations, singleExit, slotError } from './kind';

/** Where paths that split earlier come back together; profiles then follow one path. */
export const mergeStepSchema = z.object({
  type: z.literal('Merge'),
  name: z.string().nullable().optional(),
  next: nextSchema,
});

export type MergeStep = z.output<typeof mergeStepSchema>;

export const mergeKind: StepKind<MergeStep> = {
  type: 'Merge',
  label: 'Merge',
  schema: mergeStepSchema,
  exits: (step) => singleExit(step.next),
  withExitTarget(step, slot, target) {
    if (slot.kind !== 'next') throw slotError(step.type, slot);
    return { ...step, next: target };
  },
  create: () => ({ type: 'Merge', next: null }),
  check: noViolations,
  checkForLaunch: noViolations,
};
