import { describe, expect, it } from 'vitest';
import { GraphOperationError } from '../errors';
import type { Journey } from '../journey';
import { createStep } from '../steps/registry';
import { abTest, context, decision, deepFreeze, end, journey, merge, stage, wait } from '../testing/builders';
import { validateJourney } from '../validate/validate-journey';
import { connectExit, insertStep, removeStep, replaceStep } from './operations';

const stepsOf = (j: Journey, stageIndex = 0) => j.journeyStages[stageIndex]?.steps ?? {};
const rootOf = (j: Journey, stageIndex = 0) => j.journeyStages[stageIndex]?.rootStep;

describe('insertStep', () => {
  const base = () => deepFreeze(journey(stage('w', { w: wait('e'), e: end() })));

  it('inserts after a step: the step leads to the new one, which leads on to the old target', () => {
    const j = insertStep(base(), { stageIndex: 0, after: { stepId: 'w' }, stepId: 'm', step: merge(null) });
    expect(stepsOf(j)).toEqual({ w: wait('m'), m: merge('e'), e: end() });
    expect(Object.keys(stepsOf(j))).toEqual(['w', 'm', 'e']);
  });

  it('inserts at the start of the stage', () => {
    const j = insertStep(base(), { stageIndex: 0, after: { stepId: null }, stepId: 'first', step: wait(null, 3) });
    expect(rootOf(j)).toBe('first');
    expect(stepsOf(j).first).toEqual(wait('w', 3));
  });

  it('inserts on a chosen branch and continues on the first path of a new split', () => {
    const start = journey(stage('d', { d: decision(['b1', '305', 'e'], ['b2', null, null]), e: end() }));
    const withWait = insertStep(start, {
      stageIndex: 0,
      after: { stepId: 'd', slot: { kind: 'branch', index: 1 } },
      stepId: 'w',
      step: wait(null),
    });
    const point = stepsOf(withWait).d;
    expect(point?.type === 'DecisionPoint' && point.branches.map((b) => b.next)).toEqual(['e', 'w']);
    const ids = ['c', 'a'];
    const test = createStep('ABTest', () => ids.shift() as string);
    const withTest = insertStep(withWait, {
      stageIndex: 0,
      after: { stepId: 'd', slot: { kind: 'branch', index: 0 } },
      stepId: 't',
      step: test,
    });
    const inserted = stepsOf(withTest).t;
    expect(inserted?.type === 'ABTest' && inserted.variants.map((v) => [v.id, v.next, v.percentage])).toEqual([
      ['c', 'e', 50],
      ['a', null, 50],
    ]);
    expect(validateJourney(withTest, context)).toEqual([]);
  });

  it('inserts on a chosen A/B variant', () => {
    const start = journey(stage('t', { t: abTest(['c', 50, 'e'], ['a', 50, null]), e: end() }));
    const j = insertStep(start, {
      stageIndex: 0,
      after: { stepId: 't', slot: { kind: 'variant', index: 1 } },
      stepId: 'w',
      step: wait(null),
    });
    const test = stepsOf(j).t;
    expect(test?.type === 'ABTest' && test.variants.map((v) => v.next)).toEqual(['e', 'w']);
    expect(() =>
      insertStep(start, {
        stageIndex: 0,
        after: { stepId: 't', slot: { kind: 'variant', index: 5 } },
        stepId: 'x',
        step: wait(null),
      }),
    ).toThrow(expect.objectContaining({ code: 'slot.unknown' }));
  });

  it('puts an End step where a path stops, and refuses it where the path goes on', () => {
    const start = journey(stage('w', { w: wait(null) }));
    const ended = insertStep(start, { stageIndex: 0, after: { stepId: 'w' }, stepId: 'e', step: end() });
    expect(stepsOf(ended).w).toEqual(wait('e'));
    expect(() => insertStep(base(), { stageIndex: 0, after: { stepId: 'w' }, stepId: 'x', step: end() })).toThrow(
      expect.objectContaining({ code: 'insert.end_not_last' }),
    );
  });

  it('refuses an id already used, an unknown step and a split without a chosen path', () => {
    const attempt = (after: { stepId: string | null }, stepId: string) => () =>
      insertStep(journey(stage('d', { d: decision(['b1', '305', null], ['b2', null, null]) })), {
        stageIndex: 0,
        after,
        stepId,
        step: merge(null),
      });
    expect(attempt({ stepId: null }, 'b1')).toThrow(expect.objectContaining({ code: 'step.id_taken' }));
    expect(attempt({ stepId: 'zz' }, 'n')).toThrow(expect.objectContaining({ code: 'step.unknown' }));
    expect(attempt({ stepId: 'd' }, 'n')).toThrow(expect.objectContaining({ code: 'slot.required' }));
    expect(attempt({ stepId: 'd' }, 'n')).toThrow(GraphOperationError);
  });
});

describe('removeStep', () => {
  it('reconnects the predecessor of a single-exit step to its successor', () => {
    const j = removeStep(deepFreeze(journey(stage('a', { a: wait('b'), b: wait('e'), e: end() }))), {
      stageIndex: 0,
      stepId: 'b',
    });
    expect(stepsOf(j)).toEqual({ a: wait('e'), e: end() });
  });

  it('moves the root on when the first step goes, and empties the stage when the last goes', () => {
    const j = removeStep(journey(stage('a', { a: wait('e'), e: end() })), { stageIndex: 0, stepId: 'a' });
    expect(rootOf(j)).toBe('e');
    const empty = removeStep(j, { stageIndex: 0, stepId: 'e' });
    expect(empty.journeyStages[0]).toMatchObject({ steps: null, rootStep: null });
  });

  it('stops the path where an End step was removed', () => {
    const j = removeStep(journey(stage('a', { a: wait('e'), e: end() })), { stageIndex: 0, stepId: 'e' });
    expect(stepsOf(j)).toEqual({ a: wait(null) });
  });

  it('removes a split with its paths and its own Merge, and continues after the Merge', () => {
    const start = deepFreeze(
      journey(
        stage('w', {
          w: wait('d'),
          d: decision(['b1', '305', 'x'], ['b2', '306', 'm'], ['b3', null, 'm']),
          x: wait('m'),
          m: merge('after'),
          after: wait('e'),
          e: end(),
        }),
      ),
    );
    const j = removeStep(start, { stageIndex: 0, stepId: 'd' });
    expect(stepsOf(j)).toEqual({ w: wait('after'), after: wait('e'), e: end() });
  });

  it('keeps a Merge that other paths still use and leads the predecessor into it', () => {
    const start = journey(
      stage('outer', {
        outer: decision(['o1', '305', 'inner'], ['o2', null, 'm']),
        inner: abTest(['c', 50, 'y'], ['a', 50, 'm']),
        y: wait('m'),
        m: merge('e'),
        e: end(),
      }),
    );
    const j = removeStep(start, { stageIndex: 0, stepId: 'inner' });
    const outer = stepsOf(j).outer;
    expect(outer?.type === 'DecisionPoint' && outer.branches.map((b) => b.next)).toEqual(['m', 'm']);
    expect(Object.keys(stepsOf(j))).toEqual(['outer', 'm', 'e']);
    expect(validateJourney(j, context)).toEqual([]);
  });

  it('removes a split whose paths never meet, and the path into it stops', () => {
    const start = journey(
      stage('w', { w: wait('t'), t: abTest(['c', 50, 'e1'], ['a', 50, 'x']), e1: end(), x: wait('e2'), e2: end() }),
    );
    const j = removeStep(start, { stageIndex: 0, stepId: 't' });
    expect(stepsOf(j)).toEqual({ w: wait(null) });
  });

  it('reconnects every path into a removed Merge, which the validator then reports as a rejoin', () => {
    const start = journey(
      stage('d', { d: decision(['b1', '305', 'm'], ['b2', null, 'm']), m: merge('w'), w: wait(null) }),
    );
    const j = removeStep(start, { stageIndex: 0, stepId: 'm' });
    expect(validateJourney(j, context).map((v) => [v.code, v.path.stepId])).toEqual([
      ['graph.rejoin_without_merge', 'w'],
    ]);
  });
});

describe('connectExit and replaceStep', () => {
  it('connects an open path to a Merge', () => {
    const start = journey(stage('d', { d: decision(['b1', '305', 'm'], ['b2', null, null]), m: merge(null) }));
    const j = connectExit(start, {
      stageIndex: 0,
      from: { stepId: 'd', slot: { kind: 'branch', index: 1 } },
      target: 'm',
    });
    const point = stepsOf(j).d;
    expect(point?.type === 'DecisionPoint' && point.branches[1]?.next).toBe('m');
  });

  it('replaces the settings of a step of the same type only', () => {
    const start = journey(stage('w', { w: wait('e'), e: end() }));
    expect(stepsOf(replaceStep(start, { stageIndex: 0, stepId: 'w', step: wait('e', 5) })).w).toEqual(wait('e', 5));
    expect(() => replaceStep(start, { stageIndex: 0, stepId: 'w', step: merge('e') })).toThrow(
      expect.objectContaining({ code: 'step.type_mismatch' }),
    );
  });
});
