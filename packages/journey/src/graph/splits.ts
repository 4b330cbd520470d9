import { GraphOperationError } from '../errors';
import type { Journey, Stage } from '../journey';
import type { ABTestStep, Variant } from '../steps/ab-test';
import { withEvenSplit } from '../steps/ab-test';
import type { Branch, DecisionPointStep } from '../steps/decision-point';
import type { StepExit } from '../steps/kind';
import { assertIdFree, dropSteps, exitAt, replaceIn, stageAt, stepIn, withStage } from './edit';
import type { StepRef } from './operations';
import { exclusiveTo, stageGraph } from './stage-graph';

function decisionPoint(stage: Stage, stepId: string): DecisionPointStep {
  const step = stepIn(stage, stepId);
  if (step.type !== 'DecisionPoint') {
    throw new GraphOperationError('step.type_mismatch', `Step ${stepId} is a ${step.type}, not a decision point.`);
  }
  return step;
}

function abTest(stage: Stage, stepId: string): ABTestStep {
  const step = stepIn(stage, stepId);
  if (step.type !== 'ABTest') {
    throw new GraphOperationError('step.type_mismatch', `Step ${stepId} is a ${step.type}, not an A/B test.`);
  }
  return step;
}

/** Steps that only the given outgoing edge leads to (its exclusive sub-path); empty when it stops. */
function exclusiveSubPath(stage: Stage, stepId: string, exit: StepExit): Set<string> {
  if (exit.target === null) return new Set();
  const graph = stageGraph(stage);
  if (!Object.hasOwn(graph.steps, exit.target)) return new Set();
  return exclusiveTo(graph, [{ source: stepId, slot: exit.slot, handle: exit.handle, target: exit.target }]);
}

/**
 * Adds a path to a decision point at `index`; by default last, but before a trailing
 * excluded-profiles path so that it keeps catching the rest.
 */
export function addBranch(journey: Journey, input: StepRef & { branch: Branch; index?: number }): Journey {
  const stage = stageAt(journey, input.stageIndex);
  const step = decisionPoint(stage, input.stepId);
  assertIdFree(journey, input.branch.id);
  const last = step.branches[step.branches.length - 1];
  const fallback = last?.excludedPath ? step.branches.length - 1 : step.branches.length;
  const index = Math.max(0, Math.min(input.index ?? fallback, step.branches.length));
  const branches = [...step.branches.slice(0, index), input.branch, ...step.branches.slice(index)];
  return withStage(journey, input.stageIndex, replaceIn(stage, input.stepId, { ...step, branches }));
}

/** Moves a path of a decision point; order decides which path a profile matching several follows. */
export function moveBranch(journey: Journey, input: StepRef & { from: number; to: number }): Journey {
  const stage = stageAt(journey, input.stageIndex);
  const step = decisionPoint(stage, input.stepId);
  const moving = step.branches[input.from];
  if (!moving || input.to < 0 || input.to >= step.branches.length) {
    throw new GraphOperationError('branch.unknown', 'This decision point has no path at that position.');
  }
  const rest = step.branches.filter((_, i) => i !== input.from);
  const branches = [...rest.slice(0, input.to), moving, ...rest.slice(input.to)];
  return withStage(journey, input.stageIndex, replaceIn(stage, input.stepId, { ...step, branches }));
}

/** Removes a path of a decision point and the steps only that path leads to. */
export function removeBranch(journey: Journey, input: StepRef & { branchIndex: number }): Journey {
  const stage = stageAt(journey, input.stageIndex);
  const step = decisionPoint(stage, input.stepId);
  if (!step.branches[input.branchIndex]) {
    throw new GraphOperationError('branch.unknown', `This decision point has no path number ${input.branchIndex + 1}.`);
  }
  const gone = exclusiveSubPath(stage, input.stepId, exitAt(step, { kind: 'branch', index: input.branchIndex }));
  const branches = step.branches.filter((_, i) => i !== input.branchIndex);
  const next = dropSteps(replaceIn(stage, input.stepId, { ...step, branches }), gone);
  return withStage(journey, input.stageIndex, next);
}

function resplit(step: ABTestStep): ABTestStep {
  return step.customizedSplit ? step : withEvenSplit(step);
}

/** Adds a test variant at the end; an even split is recomputed. */
export function addVariant(journey: Journey, input: StepRef & { variant: Variant }): Journey {
  const stage = stageAt(journey, input.stageIndex);
  const step = abTest(stage, input.stepId);
  assertIdFree(journey, input.variant.id);
  const updated = resplit({ ...step, variants: [...step.variants, input.variant] });
  return withStage(journey, input.stageIndex, replaceIn(stage, input.stepId, updated));
}

/** Removes a test variant and the steps only it leads to; the control (variant 0) cannot be removed. */
export function removeVariant(journey: Journey, input: StepRef & { variantIndex: number }): Journey {
  const stage = stageAt(journey, input.stageIndex);
  const step = abTest(stage, input.stepId);
  if (input.variantIndex === 0) {
    throw new GraphOperationError('variant.control_required', 'The control group cannot be removed from an A/B test.');
  }
  if (!step.variants[input.variantIndex]) {
    throw new GraphOperationError('variant.unknown', `This A/B test has no variant number ${input.variantIndex + 1}.`);
  }
  const gone = exclusiveSubPath(stage, input.stepId, exitAt(step, { kind: 'variant', index: input.variantIndex }));
  const updated = resplit({ ...step, variants: step.variants.filter((_, i) => i !== input.variantIndex) });
  return withStage(journey, input.stageIndex, dropSteps(replaceIn(stage, input.stepId, updated), gone));
}

/** Switches an A/B test to an even split (customizedSplit false, percentages from `evenSplit`). */
export function setEvenSplit(journey: Journey, input: StepRef): Journey {
  const stage = stageAt(journey, input.stageIndex);
  const step = abTest(stage, input.stepId);
  return withStage(journey, input.stageIndex, replaceIn(stage, input.stepId, withEvenSplit(step)));
}

/** Switches an A/B test to a customized split with the given percentages, in variant order. */
export function setCustomSplit(journey: Journey, input: StepRef & { percentages: number[] }): Journey {
  const stage = stageAt(journey, input.stageIndex);
  const step = abTest(stage, input.stepId);
  if (input.percentages.length !== step.variants.length) {
    throw new GraphOperationError(
      'variant.unknown',
      `This A/B test has ${step.variants.length} variants; give one percentage for each.`,
    );
  }
  const variants = step.variants.map((v, i) => ({ ...v, percentage: input.percentages[i] as number }));
  return withStage(
    journey,
    input.stageIndex,
    replaceIn(stage, input.stepId, { ...step, customizedSplit: true, variants }),
  );
}
