import { z } from 'zod';
import { GraphOperationError } from '../errors';
import type { StepLocation, Violation } from '../violations';

/** Which outgoing edge of a step: its single `next`, or branch / variant number `index` (0-based). */
export type ExitSlot = { kind: 'next' } | { kind: 'branch'; index: number } | { kind: 'variant'; index: number };

/** Stable id of an outgoing edge, used as the canvas handle: survives reordering and renaming. */
export type ExitHandle = 'next' | `branch:${string}` | `variant:${string}`;

export interface StepExit {
  slot: ExitSlot;
  handle: ExitHandle;
  label: string;
  target: string | null;
}

/** What the rules may know about the world outside the journey; each part optional. */
export interface RuleContext {
  segmentIds?: ReadonlySet<string>;
  columns?: ReadonlySet<string>;
  activationIds?: ReadonlySet<string>;
}

/** One step kind: everything the validator, the graph operations and the canvas need to know about it. */
export interface StepKind<S extends { type: string }> {
  type: S['type'];
  /** Name shown to marketers. */
  label: string;
  schema: z.ZodType<S>;
  /** Outgoing edges in display order (branch and variant order kept). */
  exits(step: S): StepExit[];
  /** A copy of the step with one outgoing edge pointing at `target`. */
  withExitTarget(step: S, slot: ExitSlot, target: string | null): S;
  /** A new step of this kind; `newId` supplies ids for branches and variants. */
  create(newId: () => string): S;
  /** Rules every saved draft must satisfy. */
  check(step: S, at: StepLocation, context: RuleContext): Violation[];
  /** Extra completeness rules checked before launch. */
  checkForLaunch(step: S, at: StepLocation, context: RuleContext): Violation[];
}

/** `next` as stored: the id of the following step or null. */
export const nextSchema = z.string().nullable().default(null);

const NEXT_HANDLE: ExitHandle = 'next';

export function singleExit(target: string | null): StepExit[] {
  return [{ slot: { kind: 'next' }, handle: NEXT_HANDLE, label: 'Next', target }];
}

export function slotError(type: string, slot: ExitSlot): GraphOperationError {
  const which = slot.kind === 'next' ? 'next' : `${slot.kind} ${slot.index}`;
  return new GraphOperationError('slot.unknown', `A ${type} step has no outgoing edge "${which}".`);
}

export const noViolations = (): Violation[] => [];
