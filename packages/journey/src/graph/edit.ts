import { GraphOperationError } from '../errors';
import type { Journey, Stage } from '../journey';
import type { ExitSlot, StepExit } from '../steps/kind';
import type { Step } from '../steps/registry';
import { stepExits, withExitTarget } from '../steps/registry';

/** Helpers shared by the graph operations; all return new objects and never mutate their input. */

export function stageAt(journey: Journey, stageIndex: number): Stage {
  const stage = journey.journeyStages[stageIndex];
  if (!stage) throw new GraphOperationError('stage.unknown', `The journey has no stage number ${stageIndex + 1}.`);
  return stage;
}

export function withStage(journey: Journey, stageIndex: number, stage: Stage): Journey {
  return { ...journey, journeyStages: journey.journeyStages.map((s, i) => (i === stageIndex ? stage : s)) };
}

export function stepIn(stage: Stage, stepId: string): Step {
  const step = stage.steps?.[stepId];
  if (!step) throw new GraphOperationError('step.unknown', `This stage has no step ${stepId}.`);
  return step;
}

function sameSlot(a: ExitSlot, b: ExitSlot): boolean {
  return a.kind === b.kind && (a.kind === 'next' || a.index === (b as { index: number }).index);
}

export function exitAt(step: Step, slot: ExitSlot): StepExit {
  const exit = stepExits(step).find((e) => sameSlot(e.slot, slot));
  if (!exit) {
    const which = slot.kind === 'next' ? 'next' : `${slot.kind} ${slot.index + 1}`;
    throw new GraphOperationError('slot.unknown', `This ${step.type} step has no outgoing edge "${which}".`);
  }
  return exit;
}

/** Every id used in the journey: steps, decision-point paths and A/B variants. */
function usedIds(journey: Journey): Set<string> {
  const ids = new Set<string>();
  for (const stage of journey.journeyStages) {
    for (const [id, step] of Object.entries(stage.steps ?? {})) {
      ids.add(id);
      if (step.type === 'DecisionPoint') for (const b of step.branches) ids.add(b.id);
      if (step.type === 'ABTest') for (const v of step.variants) ids.add(v.id);
    }
  }
  return ids;
}

export function assertIdFree(journey: Journey, id: string): void {
  if (usedIds(journey).has(id)) {
    throw new GraphOperationError('step.id_taken', `The id ${id} is already used in this journey; use a new one.`);
  }
}

function mapSteps(stage: Stage, map: (step: Step, id: string) => Step): Stage {
  if (!stage.steps) return stage;
  const steps: Record<string, Step> = {};
  for (const [id, step] of Object.entries(stage.steps)) steps[id] = map(step, id);
  return { ...stage, steps };
}

export function replaceIn(stage: Stage, stepId: string, step: Step): Stage {
  return mapSteps(stage, (s, id) => (id === stepId ? step : s));
}

/** Every edge into `from` (and the stage start, if it is the root) now leads to `to`. */
export function retarget(stage: Stage, from: string, to: string | null): Stage {
  const moved = mapSteps(stage, (step) => {
    let out = step;
    for (const exit of stepExits(step)) {
      if (exit.target === from) out = withExitTarget(out, exit.slot, to);
    }
    return out;
  });
  return stage.rootStep === from ? { ...moved, rootStep: to } : moved;
}

/** Deletes steps; edges into deleted steps become null (the path stops there). */
export function dropSteps(stage: Stage, ids: ReadonlySet<string>): Stage {
  if (ids.size === 0 || !stage.steps) return stage;
  const steps: Record<string, Step> = {};
  for (const [id, step] of Object.entries(stage.steps)) {
    if (ids.has(id)) continue;
    let out = step;
    for (const exit of stepExits(step)) {
      if (exit.target !== null && ids.has(exit.target)) out = withExitTarget(out, exit.slot, null);
    }
    steps[id] = out;
  }
  const empty = Object.keys(steps).length === 0;
  const rootStep = stage.rootStep !== null && ids.has(stage.rootStep) ? null : stage.rootStep;
  return { ...stage, steps: empty ? null : steps, rootStep: empty ? null : rootStep };
}

/** Adds a step to the step map right after `afterId` (or first), so the map reads in path order. */
export function addStepAfter(stage: Stage, afterId: string | null, stepId: string, step: Step): Stage {
  const steps: Record<string, Step> = {};
  if (afterId === null) steps[stepId] = step;
  for (const [id, existing] of Object.entries(stage.steps ?? {})) {
    steps[id] = existing;
    if (id === afterId) steps[stepId] = step;
  }
  return { ...stage, steps };
}
