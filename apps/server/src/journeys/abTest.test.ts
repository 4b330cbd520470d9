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

async function draft(steps: Record<string, unknown>, rootStep: string): Promise<Doc> {
  const res = await send<Doc>(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: {
      name: 'A/B',
      audienceId: world.parentSegmentId,
      journeyStages: [stage(world.segments['301'] as string, rootStep, steps)],
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
