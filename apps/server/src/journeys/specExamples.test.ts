import { evenSplit, normalizeJourney } from '@svc/journey';
import {
  abTestCreationBody,
  abTestDeletionBody,
  abTestModificationBody,
  decisionPointPatchBody,
  ids,
  pauseResponse,
  snakeCaseCreationBody,
} from '@svc/journey/fixtures';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { activationBody, buildWorld, rewrite, send, violationsOf, type World } from './testing/world';

interface Doc {
  data: {
    id: string;
    type: string;
    attributes: Record<string, unknown> & {
      state: string;
      paused: boolean;
      pausedAt: string | null;
      launchedAt: string | null;
      journeyStages: Array<Record<string, unknown> & { id: string; steps: Record<string, Record<string, unknown>> }>;
    };
    relationships: Record<string, { data: unknown }>;
  };
  meta: { evenSplits: unknown[]; launchViolations: unknown[]; insertedStepId?: string };
}

let h: Harness;
let world: World;
beforeEach(async () => {
  h = await createHarness();
  world = await buildWorld(h);
});
afterEach(() => h.close());

/** No key anywhere in the answer is snake_case (answers are camelCase), but the goal's `segment_id` (spec table). */
function snakeKeys(value: unknown, found: string[] = [], parent = ''): string[] {
  if (Array.isArray(value)) for (const v of value) snakeKeys(v, found, parent);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const goalSegment = parent === 'goal' && k === 'segment_id';
      if (/_/.test(k) && !/^[0-9a-f-]{36}$/.test(k) && !goalSegment) found.push(k);
      snakeKeys(v, found, k);
    }
  }
  return found;
}

const withoutStageIds = (stages: Array<Record<string, unknown>>) => stages.map(({ id: _id, ...rest }) => rest);

async function activation(journeyId: string): Promise<string> {
  const res = await send<{ data: { id: string } }>(
    h,
    'POST',
    `/entities/journeys/${journeyId}/syndications`,
    activationBody(world),
  );
  expect(res.status).toBe(200);
  return res.body.data.id;
}

async function roundTrips(doc: Doc): Promise<void> {
  const again = await send<Doc>(h, 'GET', `/entities/journeys/${doc.data.id}`);
  expect(again.status).toBe(200);
  const { insertedStepId: _only, ...meta } = doc.meta;
  expect(again.body).toEqual({ ...doc, meta });
  expect(snakeKeys(doc)).toEqual([]);
}

describe('the spec examples', () => {
  it('creation in snake_case: launch needs existing activations; a draft round-trips in camelCase', async () => {
    const body = rewrite(snakeCaseCreationBody, world.ids);
    const refused = violationsOf(await send(h, 'POST', '/entities/journeys', body));
    expect(refused).toEqual([
      expect.objectContaining({
        code: 'activation.unknown',
        path: expect.objectContaining({
          text: `journeyStages[0].steps["${ids.welcomeActivation}"].journeyActivationStepId`,
        }),
      }),
    ]);
    // It says exactly what to do instead (docs/decisions/0014-launch-at-creation.md).
    expect(refused[0]?.message).toMatch(
      /cannot launch at creation\. Create it with state "draft", add its activations with POST \/entities\/journeys\/\{journeyId\}\/syndications, .*then PATCH the journey with state "launched"/,
    );

    const draft = { ...body, attributes: { ...body.attributes, state: 'draft' } };
    const created = await send<Doc>(h, 'POST', '/entities/journeys', draft);
    expect(created.status).toBe(200);
    const doc = created.body;
    expect(doc.data.type).toBe('journey');
    expect(doc.data.attributes).toMatchObject({
      name: 'Welcome series',
      state: 'draft',
      audienceId: world.parentSegmentId,
    });
    expect(doc.data.relationships.parentFolder).toEqual({ data: { id: world.rootFolderId, type: 'folder-segment' } });
    const expected = normalizeJourney(draft.attributes).journeyStages;
    expect(withoutStageIds(doc.data.attributes.journeyStages)).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(doc.data.attributes.journeyStages.map((s) => s.id)).toEqual([
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^\d+$/),
    ]);
    expect(doc.data.attributes.createdAt).toBe('2026-11-22T09:00:00Z');
    // The goal answers with `segment_id`, as the spec's resource table lists it, and nothing in its place.
    expect(doc.data.attributes.goal).toEqual({
      name: 'Second purchase',
      description: 'Bought twice',
      segment_id: world.ids.get('310'),
    });
    expect(doc.meta.launchViolations).toEqual([expect.objectContaining({ code: 'activation.unknown' })]);
    await roundTrips(doc);

    // With a real activation the same journey launches through PATCH.
    const activationId = await activation(doc.data.id);
    const launched = await send<Doc>(h, 'PATCH', `/entities/journeys/${doc.data.id}`, {
      id: doc.data.id,
      type: 'journey',
      attributes: { ...rewrite(doc.data.attributes, new Map([['901', activationId]])), state: 'launched' },
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    expect(launched.body.data.attributes).toMatchObject({ state: 'launched', launchedAt: '2026-11-22T09:00:00Z' });
    expect(launched.body.data.relationships.journeyActivationSteps).toEqual({
      data: [{ id: activationId, type: 'journeyActivationStep' }],
    });
    await roundTrips(launched.body);
  });

  it('the camelCase decision point keeps branch order and answers branch ids as `id`', async () => {
    const created = await send<Doc>(h, 'POST', '/entities/journeys', {
      type: 'journey',
      attributes: {
        name: 'Draft journey',
        audienceId: world.parentSegmentId,
        journeyStages: [{ name: 'Regional offers' }],
      },
    });
    expect(created.status).toBe(200);
    const journeyId = created.body.data.id;
    const stageId = created.body.data.attributes.journeyStages[0]?.id as string;
    const map = new Map(world.ids);
    map
      .set('2058', journeyId)
      .set('7001', stageId)
      .set('902', await activation(journeyId))
      .set('903', await activation(journeyId));
    const patched = await send<Doc>(
      h,
      'PATCH',
      `/entities/journeys/${journeyId}`,
      rewrite(decisionPointPatchBody, map),
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const steps = patched.body.data.attributes.journeyStages[0]?.steps ?? {};
    const branches = steps[ids.decision]?.branches as Array<Record<string, unknown>>;
    expect(branches.map((b) => [b.id, b.name, b.excludedPath, b.segmentId])).toEqual([
      [ids.branchWest, 'West', false, world.segments['305']],
      [ids.branchEast, 'East', false, world.segments['306']],
      [ids.branchExcluded, 'Excluded profiles', true, null],
    ]);
    expect(branches.every((b) => !('uuid' in b))).toBe(true);
    expect(patched.body.meta.launchViolations).toEqual([]);
    await roundTrips(patched.body);
  });

  it('A/B creation, modification and deletion', async () => {
    // The draft before the test: wait → End (the Ends the fixture's other variants lead to come with the PATCH).
    const base = rewrite(abTestDeletionBody, world.ids);
    const stage = base.attributes.journeyStages[0] as (typeof base.attributes.journeyStages)[number];
    const created = await send<Doc>(h, 'POST', '/entities/journeys', {
      type: 'journey',
      attributes: {
        ...base.attributes,
        journeyStages: [
          {
            ...stage,
            steps: {
              [ids.nurtureWait]: { type: 'WaitStep', waitStep: 1, waitStepUnit: 'day', next: ids.abControlEnd },
              [ids.abControlEnd]: { type: 'End' },
            },
          },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const journeyId = created.body.data.id;
    const stageId = created.body.data.attributes.journeyStages[0]?.id as string;

    // Creation: POST the ABTest body to the journey, naming the step it follows. The control, sent without
    // a next, continues where the wait led.
    const variants = abTestCreationBody.variants.map((v) => ({ ...v, next: null }));
    const added = await send<Doc>(h, 'POST', `/entities/journeys/${journeyId}`, {
      ...abTestCreationBody,
      variants,
      precedingStepId: ids.nurtureWait,
      stepId: ids.abTest,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.meta.insertedStepId).toBe(ids.abTest);
    const addedSteps = added.body.data.attributes.journeyStages[0]?.steps ?? {};
    expect(addedSteps[ids.nurtureWait]?.next).toBe(ids.abTest);
    expect(addedSteps[ids.abTest]).toEqual({
      ...abTestCreationBody,
      variants: variants.map((v, i) => (i === 0 ? { ...v, next: ids.abControlEnd } : v)),
    });
    expect(added.body.meta.evenSplits).toEqual([]);
    await roundTrips(added.body);

    // Modification: a fourth variant and customizedSplit false; the server splits evenly and says so.
    const map = new Map(world.ids).set('2059', journeyId).set('7002', stageId);
    const modified = await send<Doc>(
      h,
      'PATCH',
      `/entities/journeys/${journeyId}`,
      rewrite(abTestModificationBody, map),
    );
    expect(modified.status, JSON.stringify(modified.body)).toBe(200);
    const test = modified.body.data.attributes.journeyStages[0]?.steps[ids.abTest] as {
      customizedSplit: boolean;
      variants: Array<{ id: string; percentage: number }>;
    };
    expect(test.customizedSplit).toBe(false);
    expect(test.variants.map((v) => v.percentage)).toEqual(evenSplit(4));
    expect(test.variants.map((v) => v.id)).toEqual([ids.variantControl, ids.variantA, ids.variantB, ids.variantC]);
    expect(modified.body.meta.evenSplits).toEqual([
      { stageIndex: 0, stageId, stepId: ids.abTest, percentages: [25, 25, 25, 25] },
    ]);
    await roundTrips(modified.body);

    // Deletion: the test left out, the predecessor's next null.
    const deleted = await send<Doc>(h, 'PATCH', `/entities/journeys/${journeyId}`, rewrite(abTestDeletionBody, map));
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const left = deleted.body.data.attributes.journeyStages[0]?.steps ?? {};
    expect(Object.keys(left)).toEqual([ids.nurtureWait]);
    expect(left[ids.nurtureWait]?.next).toBeNull();
    await roundTrips(deleted.body);
  });

  it('pause and resume answer the journey in camelCase like the spec’s pause response', async () => {
    const created = await send<Doc>(h, 'POST', '/entities/journeys', {
      type: 'journey',
      attributes: {
        name: 'Draft journey',
        audienceId: world.parentSegmentId,
        journeyStages: [{ name: 'Regional offers' }],
      },
    });
    const journeyId = created.body.data.id;
    const map = new Map(world.ids)
      .set('2058', journeyId)
      .set('7001', created.body.data.attributes.journeyStages[0]?.id as string)
      .set('902', await activation(journeyId))
      .set('903', await activation(journeyId));
    const body = rewrite(decisionPointPatchBody, map);
    const launched = await send<Doc>(h, 'PATCH', `/entities/journeys/${journeyId}`, {
      ...body,
      attributes: { ...body.attributes, state: 'launched' },
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);

    h.clock.advance(2 * 86_400_000);
    const paused = await send<Doc>(h, 'PATCH', `/entities/journeys/${journeyId}/pause`);
    expect(paused.status).toBe(200);
    const spec = rewrite(pauseResponse, map).data;
    expect(paused.body.data.attributes).toMatchObject({
      state: spec.attributes.state,
      paused: true,
      pausedAt: '2026-11-24T09:00:00Z',
      launchedAt: '2026-11-22T09:00:00Z',
      allowReentry: false,
      goal: null,
    });
    expect(Object.keys(paused.body.data.attributes)).toEqual(Object.keys(spec.attributes));
    expect(Object.keys(paused.body.data.relationships)).toEqual(Object.keys(spec.relationships));
    expect(paused.body.data.relationships.journeyActivationSteps).toEqual(spec.relationships.journeyActivationSteps);
    const branches = paused.body.data.attributes.journeyStages[0]?.steps[ids.decision]?.branches;
    expect((branches as Array<{ id: string }>).map((b) => b.id)).toEqual([
      ids.branchWest,
      ids.branchEast,
      ids.branchExcluded,
    ]);
    await roundTrips(paused.body);

    h.clock.advance(3_600_000);
    const resumed = await send<Doc>(h, 'PATCH', `/entities/journeys/${journeyId}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.attributes).toMatchObject({ paused: false, pausedAt: null, state: 'launched' });
    await roundTrips(resumed.body);
  });
});
