import { GraphOperationError } from '../errors';
import type { Journey } from '../journey';
import type { ExitSlot } from '../steps/kind';
import type { Step } from '../steps/registry';
import { stepExits, withExitTarget } from '../steps/registry';
import { addStepAfter, assertIdFree, dropSteps, exitAt, replaceIn, retarget, stageAt, stepIn, withStage } from './edit';
import { exclusiveTo, nearestJoin, stageGraph, successors, walk } from './stage-graph';

/** An outgoing edge of a step; `stepId` null means the start of the stage (the edge into `rootStep`). */
export interface EdgeRef {
  stepId: string | null;
  /** Which edge of the step; may be left out for steps with a single `next`. */
  slot?: ExitSlot;
}

export interface InsertStepInput {
  stageIndex: number;
  after: EdgeRef;
  stepId: string;
  step: Step;
  /** Which edge of the new step continues to the old target; default its first (path 1, the control). */
  continueOn?: ExitSlot;
}

/**
 * Inserts a step on an edge: the edge now leads to the new step, and the new step's continuing edge
 * leads where the edge led before. A step without outgoing edges (End) can only go where a path stops.
 */
export function insertStep(journey: Journey, input: InsertStepInput): Journey {
  const stage = stageAt(journey, input.stageIndex);
  assertIdFree(journey, input.stepId);
  let oldTarget = stage.rootStep;
  let slot: ExitSlot | null = null;
  if (input.after.stepId !== null) {
    const predecessor = stepIn(stage, input.after.stepId);
    const exits = stepExits(predecessor);
    slot = input.after.slot ?? (exits.length === 1 ? (exits[0] as { slot: ExitSlot }).slot : null);
    if (slot === null) {
      throw new GraphOperationError('slot.required', 'Say on which path of this step the new step goes.');
    }
    oldTarget = exitAt(predecessor, slot).target;
  }
  let step = input.step;
  const ownExits = stepExits(step);
  if (oldTarget !== null) {
    const continueOn = input.continueOn ?? ownExits[0]?.slot;
    if (!continueOn) {
      throw new GraphOperationError(
        'insert.end_not_last',
        `An ${step.type} step ends its path, so it can only be added where a path stops.`,
      );
    }
    step = withExitTarget(step, exitAt(step, continueOn).slot, oldTarget);
  }
  let next = addStepAfter(stage, input.after.stepId, input.stepId, step);
  if (input.after.stepId === null || slot === null) next = { ...next, rootStep: input.stepId };
  else {
    const predecessor = stepIn(next, input.after.stepId);
    next = replaceIn(next, input.after.stepId, withExitTarget(predecessor, slot, input.stepId));
  }
  return withStage(journey, input.stageIndex, next);
}

export interface StepRef {
  stageIndex: number;
  stepId: string;
}

/**
 * Removes a step and reconnects its neighbours:
 * - a step with one `next` (Activation, WaitStep, Merge): edges into it now lead to its successor;
 * - End: edges into it now stop (null);
 * - a split (DecisionPoint, ABTest): its paths are removed up to where they all meet. Steps reached
 *   only through the split go; if the paths meet in a Merge used by nothing else, that Merge goes too
 *   and edges into the split now lead to the step after the Merge; if they meet in a step also
 *   reached from elsewhere, edges lead there; if they never meet, edges into the split now stop.
 */
export function removeStep(journey: Journey, ref: StepRef): Journey {
  const stage = stageAt(journey, ref.stageIndex);
  const step = stepIn(stage, ref.stepId);
  const exits = stepExits(step);
  const removed = new Set([ref.stepId]);
  let continuation: string | null = null;
  if (exits.length === 1) {
    continuation = exits[0]?.target ?? null;
  } else if (exits.length > 1) {
    const graph = stageGraph(stage);
    const owned = exclusiveTo(graph, successors(graph, ref.stepId));
    const join = nearestJoin(graph, ref.stepId);
    const afterJoin = join === null ? new Set<string>() : walk(graph, [join]).reached;
    for (const id of owned) if (!afterJoin.has(id)) removed.add(id);
    continuation = join;
    const joinStep = join === null ? undefined : graph.steps[join];
    if (join !== null && joinStep?.type === 'Merge' && owned.has(join)) {
      removed.add(join);
      continuation = joinStep.next;
    }
  }
  if (continuation !== null && removed.has(continuation)) continuation = null;
  const reconnected = retarget(stage, ref.stepId, continuation);
  return withStage(journey, ref.stageIndex, dropSteps(reconnected, removed));
}

export interface ConnectInput {
  stageIndex: number;
  from: { stepId: string; slot: ExitSlot };
  /** The step the edge should lead to, or null to end the path there. */
  target: string | null;
}

/** Points one outgoing edge at a step (e.g. a path into a Merge); the validator judges the result. */
export function connectExit(journey: Journey, input: ConnectInput): Journey {
  const stage = stageAt(journey, input.stageIndex);
  const source = stepIn(stage, input.from.stepId);
  const slot = exitAt(source, input.from.slot).slot;
  return withStage(
    journey,
    input.stageIndex,
    replaceIn(stage, input.from.stepId, withExitTarget(source, slot, input.target)),
  );
}

/** Replaces a step's settings with another step of the same type, keeping its place in the graph. */
export function replaceStep(journey: Journey, input: StepRef & { step: Step }): Journey {
  const stage = stageAt(journey, input.stageIndex);
  const current = stepIn(stage, input.stepId);
  if (current.type !== input.step.type) {
    throw new GraphOperationError(
      'step.type_mismatch',
      `Step ${input.stepId} is a ${current.type}; remove it and insert a ${input.step.type} instead.`,
    );
  }
  return withStage(journey, input.stageIndex, replaceIn(stage, input.stepId, input.step));
}
