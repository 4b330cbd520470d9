import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import {
  DAY_MS,
  daySeconds,
  json,
  type LaunchedIds,
  launchScenario,
  type Person,
  seedParentSegment,
  seedSegments,
} from './fixture';

interface Customer {
  profileKey: string;
  status: string;
  stageId: string;
  stepId: string | null;
  leftReason: string | null;
}
interface JourneyDoc {
  data: {
    id: string;
    attributes: { name: string; paused: boolean; state: string; journeyStages: Array<Record<string, unknown>> };
  };
  meta: { versionOf?: string | null; replacedBy?: string | null };
}

/** A launched journey copied into a version that, once launched, takes over its profiles. */
describe('journey versions', () => {
  let h: Harness;
  let T: number;
  let ids: LaunchedIds;
  const sec = (day: number) => daySeconds(T, day);

  beforeEach(async () => {
    h = await createHarness();
    T = h.clock.now().getTime();
    // p1–p4 start in stage 1 (waiting three days); p5 and p6 were engaged already, so they start in stage 2.
    const people: Person[] = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((id, i) => ({
      customer_id: id,
      vip: 1,
      engaged_at: i >= 4 ? sec(-1) : 0,
      bought_at: 0,
      unsub_at: 0,
    }));
    const parentId = await seedParentSegment(h, people);
    ids = await launchScenario(h, parentId, await seedSegments(h, parentId));
    h.clock.set(T);
    await json(h.call('POST', `/entities/journeys/${ids.journeyId}/run`));
  });
  afterEach(() => h.close());

  const customers = async (journeyId: string) =>
    (await json<{ data: Customer[] }>(h.call('GET', `/entities/journeys/${journeyId}/customers?status=all`))).data;
  const journey = (id: string) => json<JourneyDoc>(h.call('GET', `/entities/journeys/${id}`));
  const handover = async (id: string) =>
    (await json<{ data: Record<string, unknown> | null }>(h.call('GET', `/entities/journeys/${id}/handover`))).data;

  async function makeVersion(change: (stages: Array<Record<string, unknown>>) => Array<Record<string, unknown>>) {
    const made = await json<JourneyDoc>(h.call('POST', `/entities/journeys/${ids.journeyId}/versions`, { json: {} }));
    expect(made.meta.versionOf).toBe(ids.journeyId);
    const attributes = made.data.attributes;
    const patched = await h.call('PATCH', `/entities/journeys/${made.data.id}`, {
      json: { data: { type: 'journey', attributes: { journeyStages: change(attributes.journeyStages) } } },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    return made.data.id;
  }
  const launch = (id: string) =>
    h.call('PATCH', `/entities/journeys/${id}`, {
      json: { data: { type: 'journey', attributes: { state: 'launched' } } },
    });

  it('keeps the progress of profiles at unchanged steps and takes the rest out, then replaces the source', async () => {
    // Renamed step (same settings) in stage 1; stage 2 removed.
    const versionId = await makeVersion((stages) => {
      const [first] = stages as [{ steps: Record<string, Record<string, unknown>> }];
      first.steps.wait3 = { ...first.steps.wait3, name: 'Three quiet days' };
      return [first];
    });
    expect((await journey(versionId)).data.attributes.name).toBe('Welcome (new version)');
    expect(await handover(versionId)).toMatchObject({
      replaces: { id: ids.journeyId, name: 'Welcome' },
      keep: 4,
      leave: 2,
      alreadyLeft: 0,
    });
    // The estimate starts from the profiles taken over: nobody new enters (re-entry is off).
    const estimate = await json<{ data: { entering: number } }>(
      h.call('GET', `/entities/journeys/${versionId}/estimate`),
    );
    expect(estimate.data.entering).toBe(0);
    expect((await launch(versionId)).status).toBe(200);
    const firstRun = await json<{ data: { changed: number } }>(h.call('POST', `/entities/journeys/${versionId}/run`));
    expect(firstRun.data).toMatchObject({ changed: 0 });

    const source = await journey(ids.journeyId);
    expect(source.data.attributes.paused).toBe(true);
    expect(source.meta.replacedBy).toBe(versionId);
    const version = await journey(versionId);
    // Launched, the version is the journey: "(new version)" leaves its name.
    expect(version.data.attributes.name).toBe('Welcome');
    const stage1 = String(version.data.attributes.journeyStages[0]?.id);
    const moved = Object.fromEntries((await customers(versionId)).map((c) => [c.profileKey, c]));
    for (const key of ['p1', 'p2', 'p3', 'p4']) {
      expect(moved[key]).toMatchObject({ status: 'active', stageId: stage1, stepId: 'wait3' });
    }
    for (const key of ['p5', 'p6']) expect(moved[key]).toMatchObject({ status: 'left', leftReason: 'version_changed' });

    // The wait started at T in the source goes on counting: three days on, they are past it.
    h.clock.set(T + 3 * DAY_MS);
    await json(h.call('POST', `/entities/journeys/${versionId}/run`));
    const after = await customers(versionId);
    for (const c of after.filter((x) => x.status === 'active')) expect(c.stepId).not.toBe('wait3');
    expect(after.filter((x) => x.status === 'active')).toHaveLength(4);

    // The source cannot run again, and cannot be replaced twice.
    const resumed = await h.call('PATCH', `/entities/journeys/${ids.journeyId}/resume`);
    expect(resumed.status).toBe(409);
    expect(((await resumed.json()) as { message: string }).message).toContain(`replaced by journey ${versionId}`);
    const again = await h.call('POST', `/entities/journeys/${ids.journeyId}/versions`, { json: {} });
    expect(again.status).toBe(409);
  });

  it('takes profiles out of a step whose settings changed, and keeps those at unchanged steps', async () => {
    const versionId = await makeVersion((stages) => {
      const [first, second] = stages as [{ steps: Record<string, Record<string, unknown>> }, unknown];
      first.steps.wait3 = { ...first.steps.wait3, waitStep: 4 };
      return [first, second as Record<string, unknown>];
    });
    expect(await handover(versionId)).toMatchObject({ keep: 2, leave: 4 });
    expect((await launch(versionId)).status).toBe(200);
    const moved = Object.fromEntries((await customers(versionId)).map((c) => [c.profileKey, c.status]));
    expect(moved).toEqual({ p1: 'left', p2: 'left', p3: 'left', p4: 'left', p5: 'active', p6: 'active' });
  });

  it('refuses a version of a draft, a second launch of a replaced source, and says null for plain drafts', async () => {
    const first = await makeVersion((stages) => stages);
    const second = await makeVersion((stages) => stages);
    expect(await handover(first)).toMatchObject({ keep: 6, leave: 0 });
    const draftVersion = await h.call('POST', `/entities/journeys/${first}/versions`, { json: {} });
    expect(draftVersion.status).toBe(409);
    expect((await launch(first)).status).toBe(200);
    const late = await launch(second);
    expect(late.status).toBe(409);
    expect(((await late.json()) as { message: string }).message).toContain(`already replaced by journey ${first}`);
    expect(await handover(ids.journeyId)).toBeNull();
  });
});
