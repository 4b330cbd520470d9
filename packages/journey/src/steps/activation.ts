import { z } from 'zod';
import { stepPath, violation } from '../violations';
import type { StepKind } from './kind';
import { nextSchema, noViolations, singleExit, slotError } from './kind';

export const activationStepSchema = z.object({
  type: z.literal('Activation'),
  name: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  /** The journeyActivationStep (syndication) this step triggers. */
  journeyActivationStepId: z.string().nullable().default(null),
  next: nextSchema,
});

export type ActivationStep = z.output<typeof activationStepSchema>;

export const activationKind: StepKind<ActivationStep> = {
  type: 'Activation',
  label: 'Activation',
  schema: activationStepSchema,
  exits: (step) => singleExit(step.next),
  withExitTarget(step, slot, target) {
    if (slot.kind !== 'next') throw slotError(step.type, slot);
    return { ...step, next: target };
  },
  create: () => ({ type: 'Activation', name: 'Activation', journeyActivationStepId: null, next: null }),
  check(step, at, context) {
    const id = step.journeyActivationStepId;
    if (!id || !context.activationIds || context.activationIds.has(id)) return [];
    return [
      violation(
        'activation.unknown',
        `This activation step triggers activation ${id}, which does not exist in this journey; choose an existing activation.`,
        stepPath(at, { field: 'journeyActivationStepId' }),
      ),
    ];
  },
  checkForLaunch(step, at) {
    if (step.journeyActivationStepId) return noViolations();
    return [
      violation(
        'activation.missing',
        'This activation step does not say which activation to run; choose an activation before launching.',
        stepPath(at, { field: 'journeyActivationStepId' }),
      ),
    ];
  },
};
