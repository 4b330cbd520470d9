import { describe, expect, it } from 'vitest';
import { parseJourneyRequest } from '../document';
import { decisionPointPatchBody, parentSegment, snakeCaseCreationBody } from '../fixtures/spec-examples';
import type { Journey } from '../journey';
import { normalizeJourney } from '../normalize';
import { abTest, activation, codes, context, decision, end, journey, merge, stage, wait } from '../testing/builders';
import { validateForLaunch, validateJourney } from './validate-journey';

function attributes(body: unknown): Journey {
  const parsed = parseJourneyRequest(body);
  if (!parsed.ok) throw new Error('fixture does not parse');
  return parsed.value.attributes;
}

describe('journey, criteria and goal rules', () => {
  it('accepts the spec examples against their parent segment', () => {
    expect(validateJourney(attributes(snakeCaseCreationBody), parentSegment)).toEqual([]);
    expect(validateJourney(attributes(decisionPointPatchBody), parentSegment)).toEqual([]);
  });

  it('rejects a journey without a name', () => {
    const found = validateJourney(normalizeJourney({ name: '  ' }));
    expect(found.map((v) => [v.code, v.path.text])).toEqual([['journey.name_missing', 'name']]);
  });

  it('rejects entry criteria, milestone, exit criteria and goal segments the parent segment does not have', () => {
    const j = journey(
      stage(
        null,
        {},
        {
          entryCriteria: { name: 'In', segmentId: '801', description: null },
          milestone: { name: 'Done', segmentId: '802', description: null },
          exitCriterias: [{ name: 'Out', segmentId: '803' }],
        },
      ),
    );
    const found = validateJourney({ ...j, goal: { name: 'G', description: null, segmentId: '804' } }, context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['segment.unknown', 'goal.segmentId'],
      ['segment.unknown', 'journeyStages[0].entryCriteria.segmentId'],
      ['segment.unknown', 'journeyStages[0].milestone.segmentId'],
      ['segment.unknown', 'journeyStages[0].exitCriterias[0].segmentId'],
    ]);
  });

  it('rejects exit criteria without a segment or a number of days', () => {
    const found = validateJourney(journey(stage(null, {}, { exitCriterias: [{ name: 'Out' }] })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([['exit.incomplete', 'journeyStages[0].exitCriterias[0]']]);
  });

  it('rejects exitAfter that is not a positive whole number of days', () => {
    const exits = [
      { name: 'Late', exitAfter: 0, unit: 'days' },
      { name: 'Weekly', exitAfter: 2, unit: 'weeks' },
    ];
    const found = validateJourney(journey(stage(null, {}, { exitCriterias: exits })), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['exit.after', 'journeyStages[0].exitCriterias[0].exitAfter'],
      ['exit.unit', 'journeyStages[0].exitCriterias[1].unit'],
    ]);
  });
});

describe('launch', () => {
  const ready = () =>
    journey(
      stage('a', { a: activation('e'), e: end() }, { milestone: { name: 'M', segmentId: '302', description: null } }),
      stage('w', { w: wait('e2'), e2: end() }),
    );

  it('accepts the snake_case creation body that asks to be launched', () => {
    expect(validateForLaunch(attributes(snakeCaseCreationBody), parentSegment)).toEqual([]);
  });

  it('accepts a complete journey', () => {
    expect(validateForLaunch(ready(), context)).toEqual([]);
  });

  it('rejects a path that stops without an End step', () => {
    const j = journey(stage('d', { d: decision(['b1', '305', 'e'], ['b2', null, null]), e: end() }));
    const found = validateForLaunch(j, context);
    expect(found.map((v) => [v.code, v.path.text, v.message])).toEqual([
      [
        'graph.path_open',
        'journeyStages[0].steps["d"].branches[1].next',
        'The path "Excluded profiles" stops here without an End step; lead it to another step or add an End step.',
      ],
    ]);
  });

  it('rejects an activation step without an activation', () => {
    const j = journey(stage('a', { a: activation('e', null), e: end() }));
    const found = validateForLaunch(j, context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['activation.missing', 'journeyStages[0].steps["a"].journeyActivationStepId'],
    ]);
  });

  it('rejects an activation that does not exist', () => {
    const j = journey(stage('a', { a: activation('e', '999'), e: end() }));
    expect(codes(validateForLaunch(j, context))).toEqual(['activation.unknown']);
  });

  it('rejects missing names, entry criteria and milestones', () => {
    const j = journey(stage('e', { e: end() }, { name: '', entryCriteria: null }), stage('e2', { e2: end() }));
    const found = validateForLaunch(j, context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['stage.name_missing', 'journeyStages[0].name'],
      ['stage.entry_missing', 'journeyStages[0].entryCriteria.segmentId'],
      ['stage.milestone_missing', 'journeyStages[0].milestone.segmentId'],
    ]);
  });

  it('rejects a journey without stages and a stage without steps', () => {
    expect(codes(validateForLaunch(journey(), context))).toEqual(['stage.empty']);
    const found = validateForLaunch(journey(stage(null, {})), context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([['stage.empty', 'journeyStages[0].steps']]);
  });

  it('rejects an A/B test without name, variant names or unique-ID column', () => {
    const test = { ...abTest(['c', 50, 'm'], ['v', 50, 'm']), name: '', uniqueId: '' };
    test.variants[1] = { ...test.variants[1]!, name: '' };
    const found = validateForLaunch(journey(stage('t', { t: test, m: merge('e'), e: end() })), context);
    expect(found.map((v) => [v.code, v.path.field])).toEqual([
      ['ab.name_missing', 'name'],
      ['ab.unique_id_missing', 'uniqueId'],
      ['ab.variant_name_missing', 'name'],
    ]);
  });

  it('rejects a goal without a segment and a decision path without a segment', () => {
    const j = journey(stage('d', { d: decision(['b1', '305', 'm'], ['b2', null, 'm']), m: merge('e'), e: end() }));
    const point = j.journeyStages[0]!.steps!.d!;
    if (point.type !== 'DecisionPoint') throw new Error('fixture');
    point.branches[0] = { ...point.branches[0]!, segmentId: null, excludedPath: false };
    const found = validateForLaunch({ ...j, goal: { name: 'G', description: null, segmentId: null } }, context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['goal.segment_missing', 'goal.segmentId'],
      ['decision.branch_segment_missing', 'journeyStages[0].steps["d"].branches[0].segmentId'],
    ]);
  });
});

describe('names at launch (journey, stages, A/B tests and their variants; not activation steps or paths)', () => {
  const ready = () =>
    journey(stage('t', { t: abTest(['c', 50, 'm'], ['v', 50, 'm']), m: merge('a'), a: activation('e'), e: end() }));
  const stepOf = (j: Journey, id: string) => j.journeyStages[0]!.steps![id]!;
  const launchCodes = (j: Journey) => validateForLaunch(j, context).map((v) => [v.code, v.path.text]);

  it('accepts the named journey', () => {
    expect(launchCodes(ready())).toEqual([]);
  });

  it('requires the journey name (blank counts as missing)', () => {
    expect(launchCodes({ ...ready(), name: ' ' })).toEqual([['journey.name_missing', 'name']]);
  });

  it('requires every stage name', () => {
    const j = ready();
    j.journeyStages[0] = { ...j.journeyStages[0]!, name: '\t' };
    expect(launchCodes(j)).toEqual([['stage.name_missing', 'journeyStages[0].name']]);
  });

  it('requires the A/B test name', () => {
    const j = ready();
    const test = stepOf(j, 't');
    if (test.type !== 'ABTest') throw new Error('fixture');
    j.journeyStages[0]!.steps!.t = { ...test, name: '' };
    expect(launchCodes(j)).toEqual([['ab.name_missing', 'journeyStages[0].steps["t"].name']]);
  });

  it('requires every variant name, the control included', () => {
    const j = ready();
    const test = stepOf(j, 't');
    if (test.type !== 'ABTest') throw new Error('fixture');
    j.journeyStages[0]!.steps!.t = { ...test, variants: test.variants.map((v) => ({ ...v, name: ' ' })) };
    expect(launchCodes(j)).toEqual([
      ['ab.variant_name_missing', 'journeyStages[0].steps["t"].variants[0].name'],
      ['ab.variant_name_missing', 'journeyStages[0].steps["t"].variants[1].name'],
    ]);
  });

  it('does not require names of activation steps, decision points or their paths', () => {
    const j = journey(
      stage('a', {
        a: { ...activation('d'), name: null },
        d: { ...decision(['p1', '305', 'm'], ['p2', null, 'm']), name: null },
        m: merge('e'),
        e: end(),
      }),
    );
    const point = stepOf(j, 'd');
    if (point.type !== 'DecisionPoint') throw new Error('fixture');
    j.journeyStages[0]!.steps!.d = { ...point, branches: point.branches.map((b) => ({ ...b, name: null })) };
    expect(launchCodes(j)).toEqual([]);
  });
});

describe('all violations at once', () => {
  it('reports all five broken rules of one journey', () => {
    const sevenPaths = Array.from({ length: 7 }, (_, i): [string, string, string] => [`p${i}`, '305', 'm']);
    const j = journey(
      stage('d', {
        d: decision(...sevenPaths),
        m: merge('w'),
        w: { ...wait('t', 0) },
        t: abTest(['c', 60, 'e'], ['a', 60, 'ghost']),
        e: end(),
      }),
    );
    const found = validateJourney({ ...j, name: '' }, context);
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['journey.name_missing', 'name'],
      ['decision.branch_count', 'journeyStages[0].steps["d"].branches'],
      ['wait.length', 'journeyStages[0].steps["w"].waitStep'],
      ['ab.percentage_sum', 'journeyStages[0].steps["t"].variants'],
      ['step.next_unknown', 'journeyStages[0].steps["t"].variants[1].next'],
    ]);
  });
});
