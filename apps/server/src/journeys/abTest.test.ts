import { abTestCreationBody, ids } from '@svc/journey/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { decision, end, merge, stage, wait } from './testing/steps';
import { buildWorld, send, violationsOf, type World } from './testing/world';

/** Where an A/B creation request puts the test (precedingStepId, precedingPathId, stageId / stageIndex). */

interface Doc {
  data: {
    id: string;
    attributes: { journeyStages: Array<{ id: string; rootStep: string; steps: Record<string, Step> }> };
  };
  meta: { insertedStepId: string; evenSplits: Array<{ percentages: number[] }> };
}
interface Step {
  type: string;
  next?: string | null;
  branches?: Array<{ id: string; next: string | null }>;
  variants?: Array<{ id: string; percentage: number; next: string | null }>;
}

let h: Harness;
let world: World;
beforeAll(async () => {
  h = await createHarness();
  world = await buildWorld(h);
});
afterAll(() => h.close());

const test = (extra: Record<string, unknown> = {}) => ({
  type: 'ABTest',
  name: 'Offer test',
  customizedSplit: false,
  uniqueId: 'customer_id',
  variants: [{ name: 'Control' }, { name: 'Ten percent off' }, { name: 'Free shipping' }],
  ...extra,
});

async function draft(steps: Record<string, unknown>, rootStep: string | null, stages = 1): Promise<Doc> {
  const res = await send<Doc>(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: {
      name: 'A/B',
      audienceId: world.parentSegmentId,
      journeyStages: Array.from({ length: stages }, (_, i) =>
        i === 0
          ? stage(world.segments['301'] as string, rootStep, steps)
          : stage(world.segments['302'] as string, null, {}),
      ),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('A/B test creation', () => {
  it('goes on a decision path, splits evenly, and gives ids to the step and its variants', async () => {
    const doc = await draft(
      { d: decision(['west', world.segments['305'] as string, 'm'], ['rest', null, 'm']), m: merge('e'), e: end() },
      'd',
    );
    const res = await send<Doc>(h, 'POST', `/entities/journeys/${doc.data.id}`, {
      ...test(),
      preceding_step_id: 'd',
      preceding_path_id: 'west',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.meta.insertedStepId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const steps = res.body.data.attributes.journeyStages[0]?.steps ?? {};
    expect(steps.d?.branches?.map((b) => b.next)).toEqual([id, 'm']);
    expect(steps[id]?.variants?.map((v) => [v.percentage, v.next])).toEqual([
      [34, 'm'],
      [33, null],
      [33, null],
    ]);
    expect(steps[id]?.variants?.every((v) => /^[0-9a-f-]{36}$/.test(v.id))).toBe(true);
    expect(res.body.meta.evenSplits.map((s) => s.percentages)).toEqual([[34, 33, 33]]);
  });

  it('starts a stage when no preceding step is named', async () => {
    const doc = await draft({ w: wait('e'), e: end() }, 'w');
    const stageId = doc.data.attributes.journeyStages[0]?.id as string;
    const res = await send<Doc>(h, 'POST', `/entities/journeys/${doc.data.id}`, test({ stageId, stepId: 'first' }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const staged = res.body.data.attributes.journeyStages[0];
    expect(staged?.rootStep).toBe('first');
    expect(staged?.steps.first?.variants?.[0]?.next).toBe('w');
  });

  it('refuses a body that says nowhere, an unknown step or path, another step type, or a taken id', async () => {
    const doc = await draft({ w: wait('e'), e: end() }, 'w');
    const url = `/entities/journeys/${doc.data.id}`;
    const code = async (body: unknown) => violationsOf(await send(h, 'POST', url, body)).map((v) => v.code);
    expect(await code(test())).toEqual(['ab.placement_missing']);
    expect(await code(test({ precedingStepId: 'ghost' }))).toEqual(['ab.placement_step_unknown']);
    expect(await code(test({ precedingStepId: 'w', precedingPathId: 'x' }))).toEqual(['ab.placement_path_unknown']);
    expect(await code(test({ precedingStepId: 'w', stepId: 'e' }))).toEqual(['step.id_taken']);
    expect(await code(test({ precedingStepId: 'w', variants: [] }))).toEqual(['ab.variant_count']);
    expect(await code(test({ precedingStepId: 'w', customizedSplit: 'yes' }))).toEqual(['shape.invalid']);
    const other = await send<{ message: string }>(h, 'POST', url, { type: 'WaitStep', waitStep: 1 });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/adds an A\/B test/);
  });

  it('judges the result like any save: a third A/B layer is refused', async () => {
    const doc = await draft({ w: wait('e'), e: end() }, 'w');
    const url = `/entities/journeys/${doc.data.id}`;
    for (const stepId of ['t1', 't2']) {
      const res = await send(h, 'POST', url, test({ precedingStepId: 'w', stepId }));
      expect(res.status).toBe(200);
    }
    const third = violationsOf(await send(h, 'POST', url, test({ precedingStepId: 'w', stepId: 't3' })));
    expect(third.map((v) => v.code)).toEqual(['stage.ab_layers']);
  });
});

describe('A/B test creation with the spec’s body alone (rule 4): the place the journey implies', () => {
  it('goes after the last step of the only open path; the preceding step points to it with next', async () => {
    // The spec's stage without its test (what its deletion example leaves): a wait whose next is null.
    const doc = await draft({ [ids.nurtureWait]: wait(null) }, ids.nurtureWait);
    const res = await send<Doc>(h, 'POST', `/entities/journeys/${doc.data.id}`, abTestCreationBody);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.meta.insertedStepId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const staged = res.body.data.attributes.journeyStages[0];
    const steps = staged?.steps ?? {};
    expect(staged?.rootStep).toBe(ids.nurtureWait);
    expect(steps[ids.nurtureWait]?.next).toBe(id);
    expect(steps[id]).toEqual(abTestCreationBody);
    // The End steps the variants lead to are made with the ids the body gives them; the third stays open.
    expect(steps[ids.abControlEnd]).toEqual({ type: 'End' });
    expect(steps[ids.abOfferEnd]).toEqual({ type: 'End' });
    expect(Object.keys(steps).sort()).toEqual([ids.nurtureWait, id, ids.abControlEnd, ids.abOfferEnd].sort());
  });

  it('goes after the last step of a single path that stays open', async () => {
    const doc = await draft({ w: wait(null) }, 'w');
    const res = await send<Doc>(h, 'POST', `/entities/journeys/${doc.data.id}`, test());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const steps = res.body.data.attributes.journeyStages[0]?.steps ?? {};
    expect(steps.w?.next).toBe(res.body.meta.insertedStepId);
  });

  it('becomes the root of the only stage when that stage is empty', async () => {
    const doc = await draft({}, null);
    const body = { ...abTestCreationBody, variants: abTestCreationBody.variants.map((v) => ({ ...v, next: null })) };
    const res = await send<Doc>(h, 'POST', `/entities/journeys/${doc.data.id}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const staged = res.body.data.attributes.journeyStages[0];
    expect(staged?.rootStep).toBe(res.body.meta.insertedStepId);
    expect(Object.keys(staged?.steps ?? {})).toEqual([res.body.meta.insertedStepId]);
  });

  it('answers 400 naming precedingStepId and stageId when several places are open, and takes them', async () => {
    const doc = await draft(
      { d: decision(['west', world.segments['305'] as string, null], ['rest', null, null]) },
      'd',
    );
    const url = `/entities/journeys/${doc.data.id}`;
    const refused = await send<{ message: string }>(h, 'POST', url, test());
    expect(refused.status).toBe(400);
    expect(violationsOf(refused).map((v) => v.code)).toEqual(['ab.placement_ambiguous']);
    expect(refused.body.message).toBe(
      'The A/B test could go in 2 places (after step d on its path "Path west" in stage ' +
        `${doc.data.attributes.journeyStages[0]?.id} ("Stage"); after step d on its path "Everyone else" in stage ` +
        `${doc.data.attributes.journeyStages[0]?.id} ("Stage")): to choose one, set precedingStepId to the step it follows ` +
        '(with precedingPathId when that step splits into paths or variants), or stageId to make it the first step of that stage.',
    );
    const placed = await send<Doc>(h, 'POST', url, test({ precedingStepId: 'd', precedingPathId: 'rest' }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const steps = placed.body.data.attributes.journeyStages[0]?.steps ?? {};
    expect(steps.d?.branches?.map((b) => b.next)).toEqual([null, placed.body.meta.insertedStepId]);
  });

  it('with two stages open it names stageId, and stageId settles it', async () => {
    const doc = await draft({ w: wait(null) }, 'w', 2);
    const url = `/entities/journeys/${doc.data.id}`;
    const refused = await send<{ message: string }>(h, 'POST', url, test());
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(
      /could go in 2 places \(after step w in stage .*; the start of the empty stage/,
    );
    expect(refused.body.message).toMatch(/precedingStepId .* or stageId/);
    const second = doc.data.attributes.journeyStages[1]?.id as string;
    const placed = await send<Doc>(h, 'POST', url, test({ stageId: second }));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.data.attributes.journeyStages[1]?.rootStep).toBe(placed.body.meta.insertedStepId);
    const unknown = await send<{ message: string }>(h, 'POST', url, test({ stageId: '999999' }));
    expect(violationsOf(unknown).map((v) => v.code)).toEqual(['ab.placement_stage_unknown']);
    expect(unknown.body.message).toBe('The journey has no stage 999999; set stageId to one of its stage ids.');
  });

  it('is described in the OpenAPI request schema', async () => {
    const doc = (await (await h.call('GET', '/openapi.json', { key: null })).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    const described = JSON.stringify(doc.paths['/entities/journeys/{journeyId}']?.post?.requestBody);
    expect(described).toContain('the one place the journey leaves open');
    expect(described).toContain('ab.placement_ambiguous');
  });
});
