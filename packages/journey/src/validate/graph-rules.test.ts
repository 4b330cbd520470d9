import { describe, expect, it } from 'vitest';
import { abTest, codes, context, decision, end, journey, merge, stage, wait } from '../testing/builders';
import { validateJourney } from './validate-journey';

describe('stage structure', () => {
  it('accepts an empty stage', () => {
    expect(validateJourney(journey(stage(null, {})), context)).toEqual([]);
  });

  it('rejects a rootStep that is not a step of the stage', () => {
    const found = validateJourney(journey(stage('nope', { w: wait(null) })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([['stage.root_missing', 'journeyStages[0].rootStep']]);
  });

  it('rejects steps without a rootStep', () => {
    const found = validateJourney(journey(stage(null, { w: wait(null) }, { id: 's-9' })), context);
    expect(found.map((v) => [v.code, v.path])).toEqual([
      ['stage.root_missing', { stageIndex: 0, stageId: 's-9', field: 'rootStep', text: 'journeyStages[0].rootStep' }],
    ]);
  });

  it('rejects a next that names no step', () => {
    const found = validateJourney(journey(stage('w', { w: wait('ghost') })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['step.next_unknown', 'journeyStages[0].steps["w"].next'],
    ]);
  });

  it('rejects a branch leading to a step of another stage', () => {
    const j = journey(stage('d', { d: decision(['b1', '305', 'x'], ['b2', null, null]) }), stage('x', { x: end() }));
    const found = validateJourney(j, context);
    expect(codes(found)).toEqual(['step.next_other_stage']);
    expect(found[0]?.path).toMatchObject({ stageIndex: 0, stepId: 'd', branchIndex: 0, field: 'next' });
  });

  it('rejects a step that no path reaches', () => {
    const found = validateJourney(journey(stage('w', { w: wait(null), lost: end() })), context);
    expect(found.map((v) => [v.code, v.path.stepId])).toEqual([['step.unreachable', 'lost']]);
  });

  it('rejects a loop', () => {
    const found = validateJourney(journey(stage('a', { a: wait('b'), b: merge('a') })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([['graph.cycle', 'journeyStages[0].steps["b"].next']]);
  });

  it('rejects a step that leads to itself', () => {
    const found = validateJourney(journey(stage('a', { a: wait('a') })), context);
    expect(codes(found)).toEqual(['graph.cycle']);
  });

  it('rejects a loop among steps no path reaches', () => {
    const found = validateJourney(journey(stage('w', { w: wait(null), x: wait('y'), y: merge('x') })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['step.unreachable', 'journeyStages[0].steps["x"]'],
      ['step.unreachable', 'journeyStages[0].steps["y"]'],
      ['graph.cycle', 'journeyStages[0].steps["y"].next'],
    ]);
  });

  it('rejects a loop in a stage without a valid root', () => {
    const found = validateJourney(journey(stage('nope', { x: wait('y'), y: merge('x') })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['stage.root_missing', 'journeyStages[0].rootStep'],
      ['graph.cycle', 'journeyStages[0].steps["y"].next'],
    ]);
    const rootless = validateJourney(journey(stage(null, { x: wait('x') })), context);
    expect(rootless.map((v) => [v.code, v.path.text])).toEqual([
      ['stage.root_missing', 'journeyStages[0].rootStep'],
      ['graph.cycle', 'journeyStages[0].steps["x"].next'],
    ]);
  });

  it('rejects paths that rejoin without a Merge', () => {
    const j = journey(stage('d', { d: decision(['b1', '305', 'w'], ['b2', null, 'w']), w: wait(null) }));
    const found = validateJourney(j, context);
    expect(found.map((v) => [v.code, v.path.stepId])).toEqual([['graph.rejoin_without_merge', 'w']]);
  });

  it('accepts paths that rejoin through a Merge', () => {
    const j = journey(stage('d', { d: decision(['b1', '305', 'm'], ['b2', null, 'm']), m: merge(null) }));
    expect(validateJourney(j, context)).toEqual([]);
  });

  it('rejects a step id used in two stages', () => {
    const found = validateJourney(journey(stage('a', { a: end() }), stage('a', { a: end() })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([['step.id_duplicate', 'journeyStages[1].steps["a"]']]);
  });

  it('rejects a path or variant id that another step, path or variant already has', () => {
    const j = journey(
      stage('d', { d: decision(['x', '305', 't'], ['d', null, null]), t: abTest(['x', 50, null], ['a', 50, null]) }),
    );
    const found = validateJourney(j, context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['branch.id_duplicate', 'journeyStages[0].steps["d"].branches[1].id'],
      ['variant.id_duplicate', 'journeyStages[0].steps["t"].variants[0].id'],
    ]);
  });
});

describe('layers', () => {
  /** Decision points chained through their first path: d1 → d2 → d3. */
  function chainOfDecisions(count: number) {
    const steps: Record<string, ReturnType<typeof decision>> = {};
    for (let i = 1; i <= count; i++) {
      steps[`d${i}`] = decision([`d${i}a`, '305', i < count ? `d${i + 1}` : null], [`d${i}b`, null, null]);
    }
    return steps;
  }

  it('accepts two layers of decision points', () => {
    expect(validateJourney(journey(stage('d1', chainOfDecisions(2))), context)).toEqual([]);
  });

  it('rejects a third decision layer', () => {
    const found = validateJourney(journey(stage('d1', chainOfDecisions(3), { name: 'Offers' })), context);
    expect(found).toEqual([
      {
        code: 'stage.decision_layers',
        message:
          'This decision point is the 3rd on one path through the stage "Offers"; a stage allows at most 2 layers of decision points on any path.',
        path: { stageIndex: 0, stepId: 'd3', text: 'journeyStages[0].steps["d3"]' },
      },
    ]);
  });

  it('counts decision points in sequence after a Merge as layers of the same path', () => {
    const steps = {
      d1: decision(['a1', '305', 'm1'], ['b1', null, 'm1']),
      m1: merge('d2'),
      d2: decision(['a2', '305', 'm2'], ['b2', null, 'm2']),
      m2: merge('d3'),
      d3: decision(['a3', '305', null], ['b3', null, null]),
    };
    const found = validateJourney(journey(stage('d1', steps)), context);
    expect(found.map((v) => [v.code, v.path.stepId])).toEqual([['stage.decision_layers', 'd3']]);
  });

  it('counts layers per path, not per stage', () => {
    const steps = {
      d1: decision(['a1', '305', 'd2'], ['b1', null, 'd3']),
      d2: decision(['a2', '305', null], ['b2', null, null]),
      d3: decision(['a3', '305', null], ['b3', null, null]),
    };
    expect(validateJourney(journey(stage('d1', steps)), context)).toEqual([]);
  });

  it('rejects a third A/B layer and counts it apart from decision points', () => {
    const steps = {
      d1: decision(['a1', '305', 't1'], ['b1', null, null]),
      t1: abTest(['c1', 50, 'd2'], ['v1', 50, null]),
      d2: decision(['a2', '305', 't2'], ['b2', null, null]),
      t2: abTest(['c2', 50, 't3'], ['v2', 50, null]),
      t3: abTest(['c3', 50, null], ['v3', 50, null]),
    };
    const found = validateJourney(journey(stage('d1', steps)), context);
    expect(found.map((v) => [v.code, v.path.stepId])).toEqual([['stage.ab_layers', 't3']]);
  });
});
