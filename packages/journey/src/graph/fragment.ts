import { GraphOperationError } from '../errors';
import type { Journey, Stage } from '../journey';
import type { ExitSlot } from '../steps/kind';
import type { Step } from '../steps/registry';
import { stepExits, withExitTarget } from '../steps/registry';
import { assertIdFree, exitAt, replaceIn, stageAt, stepIn, withStage } from './edit';
import type { EdgeRef } from './operations';

/**
 * A connected piece of one stage, as copied to a clipboard: `steps` keep the edges between them, and
 * every edge that left the piece is cleared. `rootId` is the step the piece is entered by.
 */
export interface Fragment {
  rootId: string;
  steps: Record<string, Step>;
}

/** Ids of the steps reachable from `rootId` inside `steps`, in path order (depth first, exit order). */
function reachable(steps: Record<string, Step>, rootId: string): string[] {
  const seen = new Set<string>();
  const order: string[] = [];
  const stack = [rootId];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    const step = steps[id];
    if (!step || seen.has(id)) continue;
    seen.add(id);
    order.push(id);
    const targets = stepExits(step)
      .map((e) => e.target)
      .filter((t): t is string => t !== null);
    for (const target of targets.reverse()) stack.push(target);
  }
  return order;
}

/**
 * Copies the chosen steps of a stage. The piece is entered by the first chosen step (in step-map order)
 * that no other chosen step leads to; chosen steps not reachable from it are left out.
 */
export function copyFragment(stage: Stage, ids: Iterable<string>): Fragment | null {
  const chosen = new Set([...ids].filter((id) => stage.steps?.[id] !== undefined));
  if (chosen.size === 0) return null;
  const steps: Record<string, Step> = {};
  for (const [id, step] of Object.entries(stage.steps ?? {})) {
    if (!chosen.has(id)) continue;
    let out = step;
    for (const exit of stepExits(step)) {
      if (exit.target !== null && !chosen.has(exit.target)) out = withExitTarget(out, exit.slot, null);
    }
    steps[id] = out;
  }
  const entered = new Set(
    Object.values(steps).flatMap((s) =>
      stepExits(s)
        .map((e) => e.target)
        .filter((t): t is string => t !== null),
    ),
  );
  const rootId = Object.keys(steps).find((id) => !entered.has(id)) ?? (Object.keys(steps)[0] as string);
  const kept: Record<string, Step> = {};
  for (const id of reachable(steps, rootId)) kept[id] = steps[id] as Step;
  return { rootId, steps: kept };
}

/** The same fragment with new ids for every step, decision path and A/B variant (for pasting twice). */
export function renewFragmentIds(fragment: Fragment, newId: () => string): Fragment {
  const map = new Map<string, string>();
  const renamed = (id: string) => {
    let next = map.get(id);
    if (next === undefined) {
      next = newId();
      map.set(id, next);
    }
    return next;
  };
  for (const id of Object.keys(fragment.steps)) renamed(id);
  const target = (t: string | null) => (t === null ? null : (map.get(t) ?? null));
  const steps: Record<string, Step> = {};
  for (const [id, step] of Object.entries(fragment.steps)) {
    let out: Step = step;
    if (out.type === 'DecisionPoint') out = { ...out, branches: out.branches.map((b) => ({ ...b, id: newId() })) };
    if (out.type === 'ABTest') out = { ...out, variants: out.variants.map((v) => ({ ...v, id: newId() })) };
    for (const exit of stepExits(out)) out = withExitTarget(out, exit.slot, target(exit.target));
    steps[renamed(id)] = out;
  }
  return { rootId: renamed(fragment.rootId), steps };
}

/** The first outgoing edge (in path order) of the fragment that leads nowhere yet. */
function firstOpenExit(fragment: Fragment): { stepId: string; slot: ExitSlot } | null {
  for (const id of reachable(fragment.steps, fragment.rootId)) {
    const open = stepExits(fragment.steps[id] as Step).find((e) => e.target === null);
    if (open) return { stepId: id, slot: open.slot };
  }
  return null;
}

/**
 * Inserts a fragment on an edge: the edge now leads to the fragment's root, and the fragment's first
 * open path continues where the edge led before. Ids must be new to the journey (see `renewFragmentIds`).
 */
export function insertFragment(
  journey: Journey,
  input: { stageIndex: number; after: EdgeRef; fragment: Fragment },
): Journey {
  const stage = stageAt(journey, input.stageIndex);
  for (const step of Object.entries(input.fragment.steps)) assertIdFree(journey, step[0]);
  let oldTarget = stage.rootStep;
  let slot: ExitSlot | null = null;
  if (input.after.stepId !== null) {
    const predecessor = stepIn(stage, input.after.stepId);
    const exits = stepExits(predecessor);
    slot = input.after.slot ?? (exits.length === 1 ? (exits[0] as { slot: ExitSlot }).slot : null);
    if (slot === null) throw new GraphOperationError('slot.required', 'Say on which path the steps go.');
    oldTarget = exitAt(predecessor, slot).target;
  }
  const pasted = { ...input.fragment.steps };
  if (oldTarget !== null) {
    const open = firstOpenExit(input.fragment);
    if (!open) {
      throw new GraphOperationError(
        'insert.end_not_last',
        'These steps end their paths, so they can only be added where a path stops.',
      );
    }
    pasted[open.stepId] = withExitTarget(pasted[open.stepId] as Step, open.slot, oldTarget);
  }
  const steps: Record<string, Step> = {};
  if (input.after.stepId === null) Object.assign(steps, pasted);
  for (const [id, existing] of Object.entries(stage.steps ?? {})) {
    steps[id] = existing;
    if (id === input.after.stepId) Object.assign(steps, pasted);
  }
  let next: Stage = { ...stage, steps };
  if (input.after.stepId === null || slot === null) next = { ...next, rootStep: input.fragment.rootId };
  else {
    const predecessor = stepIn(next, input.after.stepId);
    next = replaceIn(next, input.after.stepId, withExitTarget(predecessor, slot, input.fragment.rootId));
  }
  return withStage(journey, input.stageIndex, next);
}
