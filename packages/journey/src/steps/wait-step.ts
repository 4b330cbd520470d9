import { z } from 'zod';
import type { Violation } from '../violations';
import { stepPath, violation } from '../violations';
import type { StepKind } from './kind';
import { nextSchema, noViolations, singleExit, slotError } from './kind';

/** The only wait unit the service counts in. */
export const WAIT_UNIT = 'day';

export const waitStepSchema = z.object({
  type: z.literal('WaitStep'),
  name: z.string().nullable().optional(),
  /** Length of the wait in `waitStepUnit`s; the rules require a positive integer. */
  waitStep: z.number(),
  waitStepUnit: z.string().default(WAIT_UNIT),
  next: nextSchema,
});

export type WaitStep = z.output<typeof waitStepSchema>;

export const waitStepKind: StepKind<WaitStep> = {
  type: 'WaitStep',
  label: 'Wait',
  schema: waitStepSchema,
  exits: (step) => singleExit(step.next),
  withExitTarget(step, slot, target) {
    if (slot.kind !== 'next') throw slotError(step.type, slot);
    return { ...step, next: target };
  },
  create: () => ({ type: 'WaitStep', waitStep: 1, waitStepUnit: WAIT_UNIT, next: null }),
  check(step, at) {
    const found: Violation[] = [];
    if (!Number.isInteger(step.waitStep) || step.waitStep < 1) {
      found.push(
        violation(
          'wait.length',
          `This wait lasts ${step.waitStep} ${step.waitStepUnit}s; use a whole number of days, 1 or more.`,
          stepPath(at, { field: 'waitStep' }),
        ),
      );
    }
    if (step.waitStepUnit !== WAIT_UNIT) {
      found.push(
        violation(
          'wait.unit',
          `This wait counts in "${step.waitStepUnit}"; waits count in days, so set the unit to "${WAIT_UNIT}".`,
          stepPath(at, { field: 'waitStepUnit' }),
        ),
      );
    }
    return found;
  },
  checkForLaunch: noViolations,
};
