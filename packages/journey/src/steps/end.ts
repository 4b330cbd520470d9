import { z } from 'zod';
import type { StepKind } from './kind';
import { noViolations, slotError } from './kind';

/** Ends a path; it has no outgoing edge. */
export const endStepSchema = z.object({
  type: z.literal('End'),
  name: z.string().nullable().optional(),
});

export type EndStep = z.output<typeof endStepSchema>;

export const endKind: StepKind<EndStep> = {
  type: 'End',
  label: 'End',
  schema: endStepSchema,
  exits: () => [],
  withExitTarget(step, slot) {
    throw slotError(step.type, slot);
  },
  create: () => ({ type: 'End' }),
  check: noViolations,
  checkForLaunch: noViolations,
};
