import { describe, expect, it } from 'vitest';
import { GraphOperationError } from '../errors';
import { context, decision, deepFreeze, end, journey, merge, stage, wait } from '../testing/builders';
import { validateJourney } from '../validate/validate-journey';
import { copyFragment, insertFragment, renewFragmentIds } from './fragment';

const counter = () => {
  let n = 0;
  return () => `n${++n}`;
};

describe('copyFragment', () => {
  const base = () =>
    deepFreeze(
      journey(
        stage('w', {
          w: wait('d', 2),
          d: decision(['b1', '305', 'm'], ['b2', null, 'm']),
          m: merge('e'),
          e: end(),
        }),
      ),
    );

  it('keeps the edges inside the copy and clears those that leave it', () => {
    const fragment = copyFragment(base().journeyStages[0]!, ['d', 'm']);
    expect(fragment?.rootId).toBe('d');
    expect(fragment?.steps).toEqual({ d: decision(['b1', '305', 'm'], ['b2', null, 'm']), m: merge(null) });
  });

  it('is entered by the chosen step no other chosen step leads to', () => {
    const fragment = copyFragment(base().journeyStages[0]!, ['m', 'w']);
    expect(fragment?.rootId).toBe('w');
    expect(Object.keys(fragment?.steps ?? {})).toEqual(['w']);
  });

  it('gives nothing for ids the stage does not have', () => {
    expect(copyFragment(base().journeyStages[0]!, ['zz'])).toBeNull();
  });
});

describe('insertFragment', () => {
  it('pastes a copied split on an edge twice, with new ids; the validator then sees three layers', () => {
    const start = deepFreeze(
      journey(
        stage('d', {
          d: decision(['b1', '305', 'm'], ['b2', null, 'm']),
          m: merge('e'),
          e: end(),
        }),
      ),
    );
    const fragment = copyFragment(start.journeyStages[0]!, ['d', 'm']);
    if (!fragment) throw new Error('no fragment');
    const newId = counter();
    const once = insertFragment(start, {
      stageIndex: 0,
      after: { stepId: 'm' },
      fragment: renewFragmentIds(fragment, newId),
    });
    const twice = insertFragment(once, {
      stageIndex: 0,
      after: { stepId: null },
      fragment: renewFragmentIds(fragment, newId),
    });
    const steps = twice.journeyStages[0]?.steps ?? {};
    expect(Object.keys(steps)).toHaveLength(7);
    expect(twice.journeyStages[0]?.rootStep).toBe('n5');
    expect(steps.m).toEqual(merge('n1'));
    expect(steps.n6).toEqual(merge('d'));
    expect(steps.n2).toEqual(merge('e'));
    const found = validateJourney(twice, context);
    expect(found.map((v) => [v.code, v.path.stepId])).toEqual([['stage.decision_layers', 'n1']]);
  });

  it('refuses to put steps that end every path in the middle of one', () => {
    const start = journey(stage('w', { w: wait('e'), e: end() }));
    const fragment = { rootId: 'x', steps: { x: end() } };
    expect(() => insertFragment(start, { stageIndex: 0, after: { stepId: null }, fragment })).toThrow(
      GraphOperationError,
    );
  });

  it('refuses ids the journey already uses', () => {
    const start = journey(stage('w', { w: wait(null) }));
    const fragment = { rootId: 'w', steps: { w: wait(null) } };
    expect(() => insertFragment(start, { stageIndex: 0, after: { stepId: 'w' }, fragment })).toThrow(/already used/);
  });
});
