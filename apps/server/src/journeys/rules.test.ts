import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { ab, act, decision, end, merge, type StageInput, stage, wait } from './testing/steps';
import { buildWorld, send, violationsOf, type World } from './testing/world';

/** One API test per journey rule: the answer names the rule's code and the offending place. */

let h: Harness;
let world: World;
let S: (fixtureId: string) => string;
beforeAll(async () => {
  h = await createHarness();
  world = await buildWorld(h);
  S = (id) => world.segments[id] as string;
});
afterAll(() => h.close());

async function create(attributes: Record<string, unknown>, relationships?: unknown) {
  return send(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: { name: 'Rules', audienceId: world.parentSegmentId, ...attributes },
    ...(relationships ? { relationships } : {}),
  });
}

async function found(attributes: Record<string, unknown>): Promise<Array<[string, string]>> {
  return violationsOf(await create(attributes)).map((v) => [v.code, v.path.text]);
}

const oneStage = (s: StageInput) => ({ journeyStages: [s] });
const at = (step: string, field?: string) => `journeyStages[0].steps["${step}"]${field ? `.${field}` : ''}`;

/**
 * What keeps a draft from being stored at all: a body that does not read, ids that do not identify one thing,
 * connections that lead nowhere or out of the stage, loops, segments not of the parent segment, and the limits.
 * A draft breaking any other rule is saved with it, lists it in `meta.launchViolations`, and cannot launch.
 */
const REFUSED_FOR_DRAFTS = new Set([
  'shape.invalid',
  'step.type_unknown',
  'step.id_duplicate',
  'branch.id_duplicate',
  'variant.id_duplicate',
  'stage.root_missing',
  'step.next_unknown',
  'step.next_other_stage',
  'graph.cycle',
  'segment.unknown',
  'decision.branch_count',
  'ab.variant_count',
  'stage.decision_layers',
  'stage.ab_layers',
]);

describe('draft rules, one at a time', () => {
  const cases: Array<[string, () => Record<string, unknown>, string, string]> = [
    [
      'a malformed field',
      () => oneStage(stage(S('301'), 'w', { w: wait(null, 'soon') })),
      'shape.invalid',
      at('w', 'waitStep'),
    ],
    [
      'an unknown step type',
      () => oneStage(stage(S('301'), 'x', { x: { type: 'Teleport', next: null } })),
      'step.type_unknown',
      at('x', 'type'),
    ],
    ['a journey without a name', () => ({ name: '  ' }), 'journey.name_missing', 'name'],
    [
      'a root step that is not in the stage',
      () => oneStage(stage(S('301'), 'nope', { w: wait(null) })),
      'stage.root_missing',
      'journeyStages[0].rootStep',
    ],
    [
      'a next that names no step',
      () => oneStage(stage(S('301'), 'w', { w: wait('ghost') })),
      'step.next_unknown',
      at('w', 'next'),
    ],
    [
      'a next into another stage',
      () => ({ journeyStages: [stage(S('301'), 'w', { w: wait('v') }), stage(S('302'), 'v', { v: end() })] }),
      'step.next_other_stage',
      at('w', 'next'),
    ],
    [
      'a step no path reaches',
      () => oneStage(stage(S('301'), 'w', { w: wait(null), orphan: end() })),
      'step.unreachable',
      at('orphan'),
    ],
    ['a loop', () => oneStage(stage(S('301'), 'a', { a: wait('b'), b: wait('a') })), 'graph.cycle', at('b', 'next')],
    [
      'paths that rejoin without a merge',
      () => oneStage(stage(S('301'), 'd', { d: decision(['p1', S('305'), 'e'], ['p2', null, 'e']), e: end() })),
      'graph.rejoin_without_merge',
      at('e'),
    ],
    [
      'a third decision layer',
      () =>
        oneStage(
          stage(S('301'), 'd1', {
            d1: decision(['a1', S('305'), 'd2'], ['a2', null, null]),
            d2: decision(['b1', S('305'), 'd3'], ['b2', null, null]),
            d3: decision(['c1', S('305'), null], ['c2', null, null]),
          }),
        ),
      'stage.decision_layers',
      at('d3'),
    ],
    [
      'a third A/B layer',
      () =>
        oneStage(
          stage(S('301'), 't1', {
            t1: ab(['a1', 50, 't2'], ['a2', 50, null]),
            t2: ab(['b1', 50, 't3'], ['b2', 50, null]),
            t3: ab(['c1', 50, null], ['c2', 50, null]),
          }),
        ),
      'stage.ab_layers',
      at('t3'),
    ],
    [
      'a step id used twice',
      () => ({ journeyStages: [stage(S('301'), 'w', { w: wait(null) }), stage(S('302'), 'w', { w: wait(null) })] }),
      'step.id_duplicate',
      'journeyStages[1].steps["w"]',
    ],
    [
      'a decision point with one path',
      () => oneStage(stage(S('301'), 'd', { d: decision(['p1', S('305'), null]) })),
      'decision.branch_count',
      at('d', 'branches'),
    ],
    [
      'two excluded paths',
      () =>
        oneStage(stage(S('301'), 'd', { d: decision(['p1', S('305'), null], ['p2', null, null], ['p3', null, null]) })),
      'decision.excluded_path_count',
      at('d', 'branches'),
    ],
    [
      'an excluded path with a segment',
      () => {
        const d = decision(['p1', S('305'), null], ['p2', null, null]);
        d.branches[1] = { ...(d.branches[1] as (typeof d.branches)[number]), segmentId: S('306') };
        return oneStage(stage(S('301'), 'd', { d }));
      },
      'decision.excluded_path_segment',
      at('d', 'branches[1].segmentId'),
    ],
    [
      'a path id that is also a step id',
      () => oneStage(stage(S('301'), 'd', { d: decision(['d', S('305'), null], ['p2', null, null]) })),
      'branch.id_duplicate',
      at('d', 'branches[0].id'),
    ],
    [
      'an A/B test with only a control',
      () => oneStage(stage(S('301'), 't', { t: ab(['c', 100, null]) })),
      'ab.variant_count',
      at('t', 'variants'),
    ],
    [
      'percentages that do not sum to 100',
      () => oneStage(stage(S('301'), 't', { t: ab(['c', 50, null], ['v', 40, null]) })),
      'ab.percentage_sum',
      at('t', 'variants'),
    ],
    [
      'a percentage that is not whole',
      () => oneStage(stage(S('301'), 't', { t: ab(['c', 50.5, null], ['v', 50, null]) })),
      'ab.percentage_integer',
      at('t', 'variants[0].percentage'),
    ],
    [
      'a uniqueId that is not a parent segment column',
      () => oneStage(stage(S('301'), 't', { t: { ...ab(['c', 50, null], ['v', 50, null]), uniqueId: 'shoe_size' } })),
      'ab.unique_id_unknown',
      at('t', 'uniqueId'),
    ],
    [
      'a variant id that is also a step id',
      () => oneStage(stage(S('301'), 't', { t: ab(['t', 50, null], ['v', 50, null]) })),
      'variant.id_duplicate',
      at('t', 'variants[0].id'),
    ],
    [
      'a wait counted in hours',
      () => oneStage(stage(S('301'), 'w', { w: wait(null, 1, 'hour') })),
      'wait.unit',
      at('w', 'waitStepUnit'),
    ],
    [
      'a wait of zero days',
      () => oneStage(stage(S('301'), 'w', { w: wait(null, 0) })),
      'wait.length',
      at('w', 'waitStep'),
    ],
    [
      'a segment the parent segment does not have',
      () => oneStage(stage('999999', 'w', { w: wait(null) })),
      'segment.unknown',
      'journeyStages[0].entryCriteria.segmentId',
    ],
    [
      'an exit criterion with neither segment nor time',
      () => oneStage(stage(S('301'), 'w', { w: wait(null) }, { exitCriterias: [{ name: 'Leave' }] })),
      'exit.incomplete',
      'journeyStages[0].exitCriterias[0]',
    ],
    [
      'an exit after a fraction of a day',
      () =>
        oneStage(
          stage(S('301'), 'w', { w: wait(null) }, { exitCriterias: [{ name: 'Leave', exitAfter: 1.5, unit: 'days' }] }),
        ),
      'exit.after',
      'journeyStages[0].exitCriterias[0].exitAfter',
    ],
    [
      'an exit counted in weeks',
      () =>
        oneStage(
          stage(S('301'), 'w', { w: wait(null) }, { exitCriterias: [{ name: 'Leave', exitAfter: 2, unit: 'weeks' }] }),
        ),
      'exit.unit',
      'journeyStages[0].exitCriterias[0].unit',
    ],
  ];

  it.each(cases.filter(([, , code]) => REFUSED_FOR_DRAFTS.has(code)))(
    'refuses to save a draft with %s',
    async (_label, attributes, code, path) => {
      expect(await found(attributes())).toEqual([[code, path]]);
    },
  );

  it.each(cases.filter(([, , code]) => !REFUSED_FOR_DRAFTS.has(code)))(
    'saves a draft with %s, lists it, and refuses only the launch',
    async (_label, attributes, code, path) => {
      const saved = await create(attributes());
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const { data, meta } = saved.body as {
        data: { id: string; attributes: { state: string } };
        meta: { launchViolations: Array<{ code: string; path: { text: string } }> };
      };
      expect(data.attributes.state).toBe('draft');
      expect(meta.launchViolations.map((v) => [v.code, v.path.text])).toContainEqual([code, path]);
      const launch = await send(h, 'PATCH', `/entities/journeys/${data.id}`, { attributes: { state: 'launched' } });
      expect(violationsOf(launch).map((v) => [v.code, v.path.text])).toContainEqual([code, path]);
      const stored = await send<{ data: { attributes: { state: string } } }>(h, 'GET', `/entities/journeys/${data.id}`);
      expect(stored.body.data.attributes.state).toBe('draft');
    },
  );

  it('names the stage by its id when it has one (stage ids of the stored journey only)', async () => {
    const created = await create(oneStage(stage(S('301'), 'w', { w: wait(null) })));
    const id = (created.body as { data: { id: string } }).data.id;
    const unknown = await send(h, 'PATCH', `/entities/journeys/${id}`, {
      attributes: { journeyStages: [{ ...stage(S('301'), 'w', { w: wait(null) }), id: '999999' }] },
    });
    expect(violationsOf(unknown).map((v) => [v.code, v.path.text, v.path.stageId])).toEqual([
      ['stage.id_unknown', 'journeyStages[0].id', '999999'],
    ]);
    const stored = (created.body as { data: { attributes: { journeyStages: Array<{ id: string }> } } }).data.attributes;
    const stageId = stored.journeyStages[0]?.id as string;
    const twice = await send(h, 'PATCH', `/entities/journeys/${id}`, {
      attributes: {
        journeyStages: [
          { ...stage(S('301'), 'w', { w: wait(null) }), id: stageId },
          { ...stage(S('302'), 'v', { v: wait(null) }), id: stageId },
        ],
      },
    });
    expect(violationsOf(twice).map((v) => [v.code, v.path.text])).toEqual([
      ['stage.id_duplicate', 'journeyStages[1].id'],
    ]);
  });
});

describe('launch rules, one at a time', () => {
  const complete = () => stage(S('301'), 'w', { w: wait('e'), e: end() }, { name: 'Welcome' });
  const launch = async (attributes: Record<string, unknown>) => found({ state: 'launched', ...attributes });
  const cases: Array<[string, () => Record<string, unknown>, string, string]> = [
    [
      'a path that stops without an End',
      () => oneStage(stage(S('301'), 'w', { w: wait(null) })),
      'graph.path_open',
      at('w', 'next'),
    ],
    [
      'a stage without a name',
      () => oneStage({ ...complete(), name: '' }),
      'stage.name_missing',
      'journeyStages[0].name',
    ],
    [
      'a stage without entry criteria',
      () => oneStage({ ...complete(), entryCriteria: null }),
      'stage.entry_missing',
      'journeyStages[0].entryCriteria.segmentId',
    ],
    [
      'a stage before the last without a milestone',
      () => ({ journeyStages: [complete(), stage(S('302'), 'x', { x: end() }, { name: 'Last' })] }),
      'stage.milestone_missing',
      'journeyStages[0].milestone.segmentId',
    ],
    [
      'a stage without steps',
      () => oneStage(stage(S('301'), null, {}, { name: 'Empty' })),
      'stage.empty',
      'journeyStages[0].steps',
    ],
    ['a journey without stages', () => ({ journeyStages: [] }), 'stage.empty', 'journeyStages'],
    [
      'an activation step without an activation',
      () => oneStage(stage(S('301'), 'a', { a: act('e'), e: end() })),
      'activation.missing',
      at('a', 'journeyActivationStepId'),
    ],
    [
      'an activation step naming no activation of the journey',
      () => oneStage(stage(S('301'), 'a', { a: act('e', '424242'), e: end() })),
      'activation.unknown',
      at('a', 'journeyActivationStepId'),
    ],
    [
      'a decision path without a segment',
      () => {
        const d = decision(['p1', S('305'), 'm'], ['p2', null, 'm']);
        d.branches[0] = { ...(d.branches[0] as (typeof d.branches)[number]), segmentId: null };
        return oneStage(stage(S('301'), 'd', { d, m: merge('e'), e: end() }));
      },
      'decision.branch_segment_missing',
      at('d', 'branches[0].segmentId'),
    ],
    [
      'an A/B test without a unique-ID column',
      () =>
        oneStage(
          stage(S('301'), 't', { t: { ...ab(['c', 50, 'm'], ['v', 50, 'm']), uniqueId: '' }, m: merge('e'), e: end() }),
        ),
      'ab.unique_id_missing',
      at('t', 'uniqueId'),
    ],
    [
      'an A/B test without a name',
      () =>
        oneStage(
          stage(S('301'), 't', { t: { ...ab(['c', 50, 'm'], ['v', 50, 'm']), name: '' }, m: merge('e'), e: end() }),
        ),
      'ab.name_missing',
      at('t', 'name'),
    ],
    [
      'an A/B variant without a name',
      () => {
        const t = ab(['c', 50, 'm'], ['v', 50, 'm']);
        t.variants[1] = { ...(t.variants[1] as (typeof t.variants)[number]), name: '' };
        return oneStage(stage(S('301'), 't', { t, m: merge('e'), e: end() }));
      },
      'ab.variant_name_missing',
      at('t', 'variants[1].name'),
    ],
    [
      'a goal without a segment',
      () => ({ ...oneStage(complete()), goal: { name: 'Buy' } }),
      'goal.segment_missing',
      'goal.segmentId',
    ],
  ];

  it.each(cases)('refuses to launch %s', async (_label, attributes, code, path) => {
    expect(await launch(attributes())).toEqual([[code, path]]);
  });
});

describe('every violation at once', () => {
  it('reports all five rules a journey breaks, each with its path', async () => {
    const paths = Array.from({ length: 7 }, (_, i): [string, string, string | null] => [
      `p${i}`,
      S('305'),
      i === 0 ? 'a' : null,
    ]);
    const answer = await create({
      name: '',
      journeyStages: [
        stage('999999', 'w', { w: wait('d', 1, 'hour'), d: decision(...paths), a: wait('b'), b: wait('a') }),
      ],
    });
    const body = answer.body as { message: string };
    expect(violationsOf(answer).map((v) => [v.code, v.path.text])).toEqual([
      ['journey.name_missing', 'name'],
      ['segment.unknown', 'journeyStages[0].entryCriteria.segmentId'],
      ['wait.unit', at('w', 'waitStepUnit')],
      ['decision.branch_count', at('d', 'branches')],
      ['graph.cycle', at('b', 'next')],
    ]);
    expect(body.message).toMatch(/^The journey breaks 5 rules\. \(1\) name: /);
  });
});
