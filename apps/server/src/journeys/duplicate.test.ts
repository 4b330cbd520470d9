import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { act, decision, end, merge, stage } from './testing/steps';
import { activationBody, buildWorld, send, type World } from './testing/world';

/** Duplicate links the same segments and copies activations, checked again as if created now. */

interface Doc {
  data: {
    id: string;
    attributes: {
      journeyStages: Array<{
        entryCriteria: { segmentId: string };
        steps: Record<string, { journeyActivationStepId?: string | null; branches?: Array<{ segmentId: string }> }>;
      }>;
    };
    relationships: { journeyActivationSteps: { data: Array<{ id: string }> } };
  };
  meta: { launchViolations: Array<{ code: string; message: string; path: { text: string } }> };
}

let h: Harness;
let world: World;
beforeEach(async () => {
  h = await createHarness();
  world = await buildWorld(h);
});
afterEach(() => h.close());

const journeyPath = (id: string, rest = '') => `/entities/journeys/${id}${rest}`;

async function sourceWith(activations: string[]): Promise<{ id: string; activationIds: string[] }> {
  const created = await send<Doc>(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: { name: 'Source', audienceId: world.parentSegmentId },
  });
  const id = created.body.data.id;
  const activationIds: string[] = [];
  for (const connectionId of activations) {
    const res = await send<{ data: { id: string } }>(
      h,
      'POST',
      journeyPath(id, '/syndications'),
      activationBody(world, { connectionId }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    activationIds.push(res.body.data.id);
  }
  const S = (fixture: string) => world.segments[fixture] as string;
  const steps = {
    d: decision(['p1', S('305'), 'a'], ['p2', null, 'b']),
    a: act('m', activationIds[0] ?? null),
    b: act('m', activationIds[1] ?? null),
    m: merge('e'),
    e: end(),
  };
  const patched = await send(h, 'PATCH', journeyPath(id), {
    attributes: { journeyStages: [stage(S('301'), 'd', steps, { name: 'Welcome' })] },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  return { id, activationIds };
}

const duplicate = (id: string) => send<Doc>(h, 'POST', '/entities/journeys/duplicate', { id, type: 'journey' });

describe('duplicate', () => {
  it('links the same segments of the same parent segment rather than copying them', async () => {
    const { id } = await sourceWith([world.connection, world.connection]);
    const copy = await duplicate(id);
    expect(copy.status).toBe(200);
    const stage = copy.body.data.attributes.journeyStages[0];
    expect(stage?.entryCriteria.segmentId).toBe(world.segments['301']);
    expect(stage?.steps.d?.branches?.[0]?.segmentId).toBe(world.segments['305']);
    expect(copy.body.meta.launchViolations).toEqual([]);
  });

  it('does not copy an activation whose connection has since been deleted, and says so', async () => {
    const gone = `gone_${Date.now()}`;
    const saved = await h.call('POST', `/v3/result/create/${gone}`, { form: { url: 'td://@/out/other' } });
    expect(saved.status).toBe(200);
    const { id, activationIds } = await sourceWith([world.connection, gone]);
    expect((await h.call('POST', `/v3/result/delete/${gone}`)).status).toBe(200);

    const copy = await duplicate(id);
    expect(copy.status, JSON.stringify(copy.body)).toBe(200);
    const copied = copy.body.data.relationships.journeyActivationSteps.data.map((a) => a.id);
    expect(copied).toHaveLength(1);
    expect(copied).not.toContain(activationIds[0]);
    const steps = copy.body.data.attributes.journeyStages[0]?.steps ?? {};
    expect(steps.a?.journeyActivationStepId).toBe(copied[0]);
    expect(steps.b?.journeyActivationStepId).toBeNull();
    const notes = copy.body.meta.launchViolations.map((v) => [v.code, v.path.text]);
    expect(notes).toEqual([
      ['activation.not_copied', 'journeyStages[0].steps["b"].journeyActivationStepId'],
      ['activation.missing', 'journeyStages[0].steps["b"].journeyActivationStepId'],
    ]);
    expect(copy.body.meta.launchViolations[0]?.message).toMatch(
      new RegExp(
        `Activation ${activationIds[1]} .*not copied.*${gone}.*POST /entities/journeys/${copy.body.data.id}/syndications`,
      ),
    );
    // The source keeps its activations; later reads of the copy show only what still stops its launch.
    const source = await send<Doc>(h, 'GET', journeyPath(id));
    expect(source.body.data.relationships.journeyActivationSteps.data).toHaveLength(2);
    const again = await send<Doc>(h, 'GET', journeyPath(copy.body.data.id));
    expect(again.body.meta.launchViolations.map((v) => v.code)).toEqual(['activation.missing']);
  });
});
