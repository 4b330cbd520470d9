import { describe, expect, it } from 'vitest';
import { abTest, activation, codes, context, decision, end, journey, merge, stage, wait } from '../testing/builders';
import { validateJourney } from './validate-journey';

describe('decision points', () => {
  it('accepts 2 to 6 paths with one excluded path', () => {
    const j = journey(stage('d', { d: decision(['b1', '305', 'm'], ['b2', null, 'm']), m: merge('e'), e: end() }));
    expect(validateJourney(j, context)).toEqual([]);
  });

  it('rejects a decision point with 7 paths', () => {
    const paths = Array.from({ length: 7 }, (_, i): [string, string, null] => [`b${i}`, '305', null]);
    const [found] = validateJourney(journey(stage('d', { d: decision(...paths) })), context);
    expect(found).toEqual({
      code: 'decision.branch_count',
      message: 'This decision point has 7 paths; use 2 to 6.',
      path: { stageIndex: 0, stepId: 'd', field: 'branches', text: 'journeyStages[0].steps["d"].branches' },
    });
  });

  it('rejects a decision point with a single path', () => {
    const found = validateJourney(journey(stage('d', { d: decision(['b1', '305', null]) })), context);
    expect(found.map((v) => [v.code, v.message])).toEqual([
      ['decision.branch_count', 'This decision point has 1 path; use 2 to 6.'],
    ]);
  });

  it('rejects a second excluded path', () => {
    const j = journey(stage('d', { d: decision(['b1', '305', null], ['b2', null, null], ['b3', null, null]) }));
    const found = validateJourney(j, context);
    expect(codes(found)).toEqual(['decision.excluded_path_count']);
    expect(found[0]?.path).toMatchObject({ stepId: 'd', field: 'branches' });
  });

  it('rejects an excluded path that has a segment', () => {
    const point = decision(['b1', '305', null], ['b2', null, null]);
    point.branches[1] = { ...point.branches[1]!, segmentId: '306' };
    const found = validateJourney(journey(stage('d', { d: point })), context);
    expect(codes(found)).toEqual(['decision.excluded_path_segment']);
    expect(found[0]?.path).toMatchObject({ stepId: 'd', branchIndex: 1, field: 'segmentId' });
    expect(found[0]?.path.text).toBe('journeyStages[0].steps["d"].branches[1].segmentId');
  });

  it('rejects a path whose segment is not in the parent segment', () => {
    const j = journey(stage('d', { d: decision(['b1', '305', null], ['b2', '999', null]) }));
    const found = validateJourney(j, context);
    expect(codes(found)).toEqual(['segment.unknown']);
    expect(found[0]?.path).toMatchObject({ stepId: 'd', branchIndex: 1, field: 'segmentId' });
    expect(validateJourney(j)).toEqual([]);
  });
});

describe('A/B tests', () => {
  const valid = () => abTest(['c', 50, null], ['a', 50, null]);

  it('accepts a control and one test variant with percentages summing to 100', () => {
    expect(validateJourney(journey(stage('t', { t: valid() })), context)).toEqual([]);
  });

  it('rejects a test with only a control', () => {
    const found = validateJourney(journey(stage('t', { t: abTest(['c', 100, null]) })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['ab.variant_count', 'journeyStages[0].steps["t"].variants'],
    ]);
  });

  it('rejects a ninth test variant', () => {
    const variants = Array.from({ length: 10 }, (_, i): [string, number, null] => [`v${i}`, 10, null]);
    const found = validateJourney(journey(stage('t', { t: abTest(...variants) })), context);
    expect(found.map((v) => [v.code, v.message])).toEqual([
      ['ab.variant_count', 'This A/B test has 9 test variants besides the control; use 1 to 8.'],
    ]);
  });

  it('rejects customized percentages that do not add up to 100', () => {
    const found = validateJourney(journey(stage('t', { t: abTest(['c', 30, null], ['a', 50, null]) })), context);
    expect(codes(found)).toEqual(['ab.percentage_sum']);
    expect(found[0]?.path).toMatchObject({ stepId: 't', field: 'variants' });
  });

  it('rejects a customized percentage that is not a whole number', () => {
    const found = validateJourney(journey(stage('t', { t: abTest(['c', 49.5, null], ['a', 50.5, null]) })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['ab.percentage_integer', 'journeyStages[0].steps["t"].variants[0].percentage'],
      ['ab.percentage_integer', 'journeyStages[0].steps["t"].variants[1].percentage'],
    ]);
  });

  it('ignores the percentages of an even split, which the server recomputes', () => {
    const test = { ...abTest(['c', 10, null], ['a', 10, null]), customizedSplit: false };
    expect(validateJourney(journey(stage('t', { t: test })), context)).toEqual([]);
  });

  it('rejects a unique-ID column the parent segment does not have', () => {
    const test = { ...valid(), uniqueId: 'shoe_size' };
    const found = validateJourney(journey(stage('t', { t: test })), context);
    expect(found.map((v) => [v.code, v.path.field])).toEqual([['ab.unique_id_unknown', 'uniqueId']]);
    expect(validateJourney(journey(stage('t', { t: test })), { segmentIds: context.segmentIds })).toEqual([]);
  });
});

describe('wait steps', () => {
  it('rejects a wait that is not a positive whole number of days', () => {
    for (const days of [0, -2, 1.5]) {
      const found = validateJourney(journey(stage('w', { w: wait(null, days) })), context);
      expect(found.map((v) => [v.code, v.path.text])).toEqual([
        ['wait.length', 'journeyStages[0].steps["w"].waitStep'],
      ]);
    }
  });

  it('rejects a unit other than day', () => {
    const step = { ...wait(null), waitStepUnit: 'week' };
    const found = validateJourney(journey(stage('w', { w: step })), context);
    expect(found.map((v) => [v.code, v.path.field, v.message])).toEqual([
      ['wait.unit', 'waitStepUnit', 'This wait counts in "week"; waits count in days, so set the unit to "day".'],
    ]);
  });
});

describe('activation steps', () => {
  it('rejects an activation that does not exist in the journey', () => {
    const found = validateJourney(journey(stage('a', { a: activation(null, '777') })), context);
    expect(found.map((v) => [v.code, v.path.field])).toEqual([['activation.unknown', 'journeyActivationStepId']]);
  });

  it('lets a draft activation step leave its activation unset', () => {
    expect(validateJourney(journey(stage('a', { a: activation(null, null) })), context)).toEqual([]);
  });
});
