import type { Branch, EdgeRef, ExitSlot, Fragment, Goal, Journey, Stage, Step, StepType, Variant } from '@svc/journey';
import {
  addBranch,
  addVariant,
  connectExit,
  createStep,
  insertFragment,
  insertStep,
  moveBranch,
  removeBranch,
  removeStep,
  removeVariant,
  renewFragmentIds,
  replaceStep,
  setCustomSplit,
  setEvenSplit,
} from '@svc/journey';

/**
 * Everything that changes the journey draft, as plain data. The toolbar, the keyboard, the context menu,
 * the side panel and the tests all build these and hand them to the store, which applies them with the
 * graph operations of `@svc/journey` and records them for undo.
 */
export type EditorCommand =
  | { type: 'insertStep'; stageIndex: number; after: EdgeRef; stepType: StepType; stepId?: string }
  | { type: 'removeSteps'; stageIndex: number; stepIds: string[] }
  | { type: 'updateStep'; stageIndex: number; stepId: string; step: Step }
  | { type: 'connect'; stageIndex: number; from: { stepId: string; slot: ExitSlot }; target: string | null }
  | { type: 'addBranch'; stageIndex: number; stepId: string; name?: string }
  | { type: 'moveBranch'; stageIndex: number; stepId: string; from: number; to: number }
  | { type: 'removeBranch'; stageIndex: number; stepId: string; branchIndex: number }
  | { type: 'updateBranch'; stageIndex: number; stepId: string; branchIndex: number; patch: Partial<Branch> }
  | { type: 'addVariant'; stageIndex: number; stepId: string }
  | { type: 'removeVariant'; stageIndex: number; stepId: string; variantIndex: number }
  | { type: 'updateVariant'; stageIndex: number; stepId: string; variantIndex: number; patch: Partial<Variant> }
  | { type: 'setEvenSplit'; stageIndex: number; stepId: string; even: boolean }
  | { type: 'paste'; stageIndex: number; after: EdgeRef; fragment: Fragment }
  | { type: 'updateStage'; stageIndex: number; patch: Partial<Omit<Stage, 'steps' | 'rootStep'>> }
  | { type: 'addStage'; name?: string }
  | { type: 'removeStage'; stageIndex: number }
  | { type: 'moveStage'; from: number; to: number }
  | { type: 'updateJourney'; patch: Partial<Pick<Journey, 'name' | 'description' | 'allowReentry'>> }
  | { type: 'setGoal'; goal: Goal | null };

/** Ids for new steps, paths and variants; tests pass a counter. */
export type NewId = () => string;

function stepAt(journey: Journey, stageIndex: number, stepId: string): Step {
  const step = journey.journeyStages[stageIndex]?.steps?.[stepId];
  if (!step) throw new Error(`Stage ${stageIndex + 1} has no step ${stepId}.`);
  return step;
}

function withSteps(journey: Journey, stageIndex: number, stepId: string, step: Step): Journey {
  return replaceStep(journey, { stageIndex, stepId, step });
}

function emptyStage(name: string): Stage {
  return {
    name,
    description: null,
    entryCriteria: { name: '', segmentId: null, description: null },
    milestone: null,
    exitCriterias: null,
    steps: null,
    rootStep: null,
  };
}

function applyStageCommand(journey: Journey, command: EditorCommand): Journey | undefined {
  const stages = journey.journeyStages;
  switch (command.type) {
    case 'updateStage':
      return {
        ...journey,
        journeyStages: stages.map((s, i) => (i === command.stageIndex ? { ...s, ...command.patch } : s)),
      };
    case 'addStage':
      return { ...journey, journeyStages: [...stages, emptyStage(command.name ?? `Stage ${stages.length + 1}`)] };
    case 'removeStage':
      return { ...journey, journeyStages: stages.filter((_, i) => i !== command.stageIndex) };
    case 'moveStage': {
      const moving = stages[command.from];
      if (!moving || command.to < 0 || command.to >= stages.length) return journey;
      const rest = stages.filter((_, i) => i !== command.from);
      return { ...journey, journeyStages: [...rest.slice(0, command.to), moving, ...rest.slice(command.to)] };
    }
    case 'updateJourney':
      return { ...journey, ...command.patch };
    case 'setGoal':
      return { ...journey, goal: command.goal };
    default:
      return undefined;
  }
}

/** Applies one command; throws (GraphOperationError or Error) when it cannot apply, never half-applies. */
export function applyCommand(journey: Journey, command: EditorCommand, newId: NewId): Journey {
  const stageLevel = applyStageCommand(journey, command);
  if (stageLevel) return stageLevel;
  switch (command.type) {
    case 'insertStep':
      return insertStep(journey, {
        stageIndex: command.stageIndex,
        after: command.after,
        stepId: command.stepId ?? newId(),
        step: createStep(command.stepType, newId),
      });
    case 'removeSteps':
      return command.stepIds.reduce(
        (j, stepId) =>
          j.journeyStages[command.stageIndex]?.steps?.[stepId]
            ? removeStep(j, { stageIndex: command.stageIndex, stepId })
            : j,
        journey,
      );
    case 'updateStep':
      return withSteps(journey, command.stageIndex, command.stepId, command.step);
    case 'connect':
      return connectExit(journey, { stageIndex: command.stageIndex, from: command.from, target: command.target });
    case 'addBranch': {
      const step = stepAt(journey, command.stageIndex, command.stepId);
      const count = step.type === 'DecisionPoint' ? step.branches.filter((b) => !b.excludedPath).length : 0;
      const branch: Branch = {
        id: newId(),
        name: command.name ?? `Path ${count + 1}`,
        description: null,
        excludedPath: false,
        segmentId: null,
        next: null,
      };
      return addBranch(journey, { stageIndex: command.stageIndex, stepId: command.stepId, branch });
    }
    case 'moveBranch':
      return moveBranch(journey, command);
    case 'removeBranch':
      return removeBranch(journey, command);
    case 'updateBranch': {
      const step = stepAt(journey, command.stageIndex, command.stepId);
      if (step.type !== 'DecisionPoint') throw new Error('Only a decision point has paths.');
      const branches = step.branches.map((b, i) => {
        if (i !== command.branchIndex) return b;
        const next = { ...b, ...command.patch, id: b.id, next: b.next };
        // The excluded-profiles path catches everyone else, so it never has a segment.
        return next.excludedPath ? { ...next, segmentId: null } : next;
      });
      return withSteps(journey, command.stageIndex, command.stepId, { ...step, branches });
    }
    case 'addVariant': {
      const step = stepAt(journey, command.stageIndex, command.stepId);
      const index = step.type === 'ABTest' ? step.variants.length : 1;
      const variant: Variant = {
        id: newId(),
        name: `Variant ${String.fromCharCode(64 + Math.min(index, 26))}`,
        percentage: 0,
        next: null,
      };
      return addVariant(journey, { stageIndex: command.stageIndex, stepId: command.stepId, variant });
    }
    case 'removeVariant':
      return removeVariant(journey, command);
    case 'updateVariant': {
      const step = stepAt(journey, command.stageIndex, command.stepId);
      if (step.type !== 'ABTest') throw new Error('Only an A/B test has variants.');
      const variants = step.variants.map((v, i) =>
        i === command.variantIndex ? { ...v, ...command.patch, id: v.id, next: v.next } : v,
      );
      return withSteps(journey, command.stageIndex, command.stepId, { ...step, variants });
    }
    case 'setEvenSplit': {
      const ref = { stageIndex: command.stageIndex, stepId: command.stepId };
      if (command.even) return setEvenSplit(journey, ref);
      const step = stepAt(journey, command.stageIndex, command.stepId);
      const percentages = step.type === 'ABTest' ? step.variants.map((v) => v.percentage) : [];
      return setCustomSplit(journey, { ...ref, percentages });
    }
    case 'paste':
      return insertFragment(journey, {
        stageIndex: command.stageIndex,
        after: command.after,
        fragment: renewFragmentIds(command.fragment, newId),
      });
    default:
      throw new Error(`Unknown editor command ${(command as { type: string }).type}.`);
  }
}
