import { z } from 'zod';
import { abTestKind, abTestStepSchema } from './ab-test';
import { activationKind, activationStepSchema } from './activation';
import { decisionPointKind, decisionPointStepSchema } from './decision-point';
import { endKind, endStepSchema } from './end';
import type { ExitSlot, StepExit, StepKind } from './kind';
import { mergeKind, mergeStepSchema } from './merge';
import { waitStepKind, waitStepSchema } from './wait-step';

export const stepSchema = z.discriminatedUnion('type', [
  activationStepSchema,
  waitStepSchema,
  decisionPointStepSchema,
  mergeStepSchema,
  endStepSchema,
  abTestStepSchema,
]);

export type Step = z.output<typeof stepSchema>;
export type StepType = Step['type'];
export type StepOf<T extends StepType> = Extract<Step, { type: T }>;

/** Every step kind; the mapped type makes a kind missing from this table a type error. */
export const stepKinds: { readonly [T in StepType]: StepKind<StepOf<T>> } = {
  Activation: activationKind,
  WaitStep: waitStepKind,
  DecisionPoint: decisionPointKind,
  Merge: mergeKind,
  End: endKind,
  ABTest: abTestKind,
};

export const stepTypes = Object.keys(stepKinds) as StepType[];

export function isStepType(value: unknown): value is StepType {
  return typeof value === 'string' && Object.hasOwn(stepKinds, value);
}

/** The kind of a step, typed for that step (the lookup by `type` is what makes the cast sound). */
export function kindOf<S extends Step>(step: S): StepKind<S> {
  return stepKinds[step.type] as unknown as StepKind<S>;
}

export function stepExits(step: Step): StepExit[] {
  return kindOf(step).exits(step);
}

export function withExitTarget<S extends Step>(step: S, slot: ExitSlot, target: string | null): S {
  return kindOf(step).withExitTarget(step, slot, target);
}

/** A new step of the given kind with its default values. */
export function createStep<T extends StepType>(type: T, newId: () => string): StepOf<T> {
  return (stepKinds[type] as StepKind<StepOf<T>>).create(newId);
}

/** Steps that split profiles over several outgoing paths. */
export function isSplit(step: Step): boolean {
  return step.type === 'DecisionPoint' || step.type === 'ABTest';
}
