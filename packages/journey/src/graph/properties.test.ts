import { describe, expect, it } from 'vitest';
import type { Journey, Stage } from '../journey';
import type { Step } from '../steps/registry';
import { stepExits } from '../steps/registry';
import { abTest, context, decision, deepFreeze, end, journey, merge, stage, wait } from '../testing/builders';
import { seededRandom } from '../testing/prng';
import { validateJourney } from '../validate/validate-journey';
import { fromGraph, toGraph } from './canvas-graph';
import { connectExit, insertStep, removeStep } from './operations';
import { addBranch, addVariant, moveBranch, removeBranch, removeVariant } from './splits';

/**
 * An independent, naive reading of the rules the operations can break, written without the
 * validator's graph code: enumerate every path, count in-degrees, search for loops.
 */
function expectedCodes(s: Stage): Set<string> {
  const steps = s.steps ?? {};
  const out = new Set<string>();
  const targets = (id: string) =>
    stepExits(steps[id] as Step)
      .map((e) => e.target)
      .filter((t): t is string => t !== null && t in steps);
  const reachableFrom = (start: string): Set<string> => {
    const seen = new Set<string>();
    const todo = [start];
    while (todo.length > 0) {
      const id = todo.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      todo.push(...targets(id));
    }
    return seen;
  };
  for (const [id, step] of Object.entries(steps)) {
    if (step.type === 'DecisionPoint' && (step.branches.length < 2 || step.branches.length > 6)) {
      out.add('decision.branch_count');
    }
    if (step.type === 'ABTest' && (step.variants.length < 2 || step.variants.length > 9)) out.add('ab.variant_count');
    if (
      step.type === 'ABTest' &&
      step.customizedSplit &&
      step.variants.reduce((sum, v) => sum + v.percentage, 0) !== 100
    ) {
      out.add('ab.percentage_sum');
    }
    for (const t of targets(id)) if (reachableFrom(t).has(id)) out.add('graph.cycle');
  }
  if (out.has('graph.cycle') || s.rootStep === null) return out;
  const reached = reachableFrom(s.rootStep);
  if (reached.size !== Object.keys(steps).length) out.add('step.unreachable');
  const inDegree = new Map<string, number>();
  for (const id of reached) for (const t of targets(id)) inDegree.set(t, (inDegree.get(t) ?? 0) + 1);
  for (const [id, count] of inDegree)
    if (count > 1 && steps[id]?.type !== 'Merge') out.add('graph.rejoin_without_merge');
  const walkPaths = (id: string, decisions: number, tests: number): void => {
    const type = steps[id]?.type;
    const d = decisions + (type === 'DecisionPoint' ? 1 : 0);
    const t = tests + (type === 'ABTest' ? 1 : 0);
    if (d > 2) out.add('stage.decision_layers');
    if (t > 2) out.add('stage.ab_layers');
    for (const next of targets(id)) walkPaths(next, d, t);
  };
  walkPaths(s.rootStep, 0, 0);
  return out;
}

function randomOperation(j: Journey, random: ReturnType<typeof seededRandom>, newId: () => string): Journey {
  const s = j.journeyStages[0] as Stage;
  const steps = s.steps ?? {};
  const ids = Object.keys(steps);
  const ofType = (type: Step['type']) => ids.filter((id) => steps[id]?.type === type);
  const exitsOf = (id: string) => stepExits(steps[id] as Step);
  const at = { stageIndex: 0 };
  const op =
    ids.length > 40
      ? random.pick(['remove', 'removeBranch', 'removeVariant'])
      : random.pick([
          'insert',
          'insert',
          'insert',
          'remove',
          'addBranch',
          'removeBranch',
          'moveBranch',
          'addVariant',
          'removeVariant',
          'connect',
        ]);
  if (op === 'remove' && ids.length > 0) return removeStep(j, { ...at, stepId: random.pick(ids) });
  const points = ofType('DecisionPoint');
  const tests = ofType('ABTest');
  if (op === 'addBranch' && points.length > 0) {
    const branch = { id: newId(), name: null, description: null, excludedPath: false, segmentId: '307', next: null };
    return addBranch(j, { ...at, stepId: random.pick(points), branch });
  }
  if (op === 'removeBranch' && points.length > 0) {
    const stepId = random.pick(points);
    return removeBranch(j, { ...at, stepId, branchIndex: random.int(exitsOf(stepId).length) });
  }
  if (op === 'moveBranch' && points.length > 0) {
    const stepId = random.pick(points);
    const n = exitsOf(stepId).length;
    return moveBranch(j, { ...at, stepId, from: random.int(n), to: random.int(n) });
  }
  if (op === 'addVariant' && tests.length > 0) {
    return addVariant(j, {
      ...at,
      stepId: random.pick(tests),
      variant: { id: newId(), name: 'V', percentage: 0, next: null },
    });
  }
  if (op === 'removeVariant' && tests.length > 0) {
    const stepId = random.pick(tests);
    const n = exitsOf(stepId).length;
    if (n > 1) return removeVariant(j, { ...at, stepId, variantIndex: 1 + random.int(n - 1) });
  }
  const openExits = ids.flatMap((id) =>
    exitsOf(id)
      .filter((e) => e.target === null)
      .map((e) => ({ id, slot: e.slot })),
  );
  if (op === 'connect' && openExits.length > 0 && ids.length > 1) {
    const from = random.pick(openExits);
    const target = random.pick([...ofType('Merge'), ...ofType('Merge'), ...ids]);
    return connectExit(j, { ...at, from: { stepId: from.id, slot: from.slot }, target });
  }
  // Insert on a random edge: the stage start or any outgoing edge of any step.
  const edges = [{ stepId: null as string | null, slot: undefined, target: s.rootStep }];
  for (const id of ids)
    for (const e of exitsOf(id)) edges.push({ stepId: id, slot: e.slot as never, target: e.target });
  const edge = random.pick(edges);
  const kinds = ['wait', 'merge', 'decision', 'test', ...(edge.target === null ? ['end'] : [])];
  const kind = random.pick(kinds);
  const step: Step =
    kind === 'wait'
      ? wait(null, 1 + random.int(5))
      : kind === 'merge'
        ? merge(null)
        : kind === 'end'
          ? end()
          : kind === 'decision'
            ? decision([newId(), '305', null], [newId(), random.next() < 0.5 ? null : '306', null])
            : { ...abTest([newId(), 50, null], [newId(), 50, null]), customizedSplit: random.next() < 0.5 };
  const after = edge.slot ? { stepId: edge.stepId, slot: edge.slot } : { stepId: edge.stepId };
  return insertStep(j, { ...at, after, stepId: newId(), step });
}

describe('graph operations, property style', () => {
  for (const seed of [1, 7, 42, 2024]) {
    it(`keeps the journey valid or reports exactly the broken rule (seed ${seed})`, () => {
      const random = seededRandom(seed);
      let counter = 0;
      const newId = () => `n${seed}-${++counter}`;
      let current = deepFreeze(journey(stage('w', { w: wait('e'), e: end() })));
      let applied = 0;
      let refused = 0;
      for (let i = 0; i < 300; i++) {
        const next = randomOperation(current, random, newId);
        const stageAfter = next.journeyStages[0] as Stage;
        const actual = new Set(validateJourney(next, context).map((v) => v.code));
        expect(actual).toEqual(expectedCodes(stageAfter));
        expect(fromGraph(toGraph(stageAfter))).toEqual({ steps: stageAfter.steps, rootStep: stageAfter.rootStep });
        if (actual.size === 0) {
          current = deepFreeze(next);
          applied++;
        } else {
          refused++;
        }
        if (!current.journeyStages[0]?.rootStep) {
          current = deepFreeze(journey(stage('w', { w: wait('e'), e: end() })));
        }
      }
      // The sequence must exercise both outcomes for the property to mean something.
      expect(applied).toBeGreaterThan(50);
      expect(refused).toBeGreaterThan(5);
    });
  }
});
