import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleCall, signIn } from '../session/testClient';
import { createHarness, type Harness } from '../testing/harness';
import { eventsOf } from './store';
import { act, end, stage, wait } from './testing/steps';
import { activationBody, buildWorld, send, type World } from './testing/world';

/** The spec's journey state table: every transition, allowed and refused. */

interface Doc {
  data: {
    id: string;
    attributes: {
      name: string;
      state: string;
      paused: boolean;
      launchedAt: string | null;
      pausedAt: string | null;
      journeyStages: Array<{ id: string; steps: Record<string, { journeyActivationStepId?: string }> }>;
    };
    relationships: { journeyActivationSteps: { data: Array<{ id: string }> } };
  };
}

let h: Harness;
let world: World;
beforeEach(async () => {
  h = await createHarness();
  world = await buildWorld(h);
});
afterEach(() => h.close());

const DAY = 86_400_000;
const path = (id: string, rest = '') => `/entities/journeys/${id}${rest}`;

async function journey(state: 'draft' | 'launched' = 'draft', name = 'Welcome'): Promise<Doc> {
  const res = await send<Doc>(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: {
      name,
      state,
      audienceId: world.parentSegmentId,
      journeyStages: [stage(world.segments['301'] as string, 'w', { w: wait('e', 2), e: end() }, { name: 'Welcome' })],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function launched(): Promise<string> {
  return (await journey('launched')).data.id;
}

async function pausedJourney(): Promise<string> {
  const id = await launched();
  expect((await send(h, 'PATCH', path(id, '/pause'))).status).toBe(200);
  return id;
}

const message = (answer: { body: unknown }) => (answer.body as { message: string }).message;

describe('create', () => {
  it('makes a draft by default, with no launch time', async () => {
    const doc = await journey();
    expect(doc.data.attributes).toMatchObject({ state: 'draft', paused: false, launchedAt: null, pausedAt: null });
  });

  it('launches at once with state "launched"', async () => {
    const doc = await journey('launched');
    expect(doc.data.attributes).toMatchObject({ state: 'launched', paused: false, launchedAt: '2026-11-22T09:00:00Z' });
    const events = await eventsOf(h.deps.storage.db, world.account.accountId, Number(doc.data.id));
    expect(events.map((e) => e.kind)).toEqual(['launched']);
  });
});

describe('PATCH', () => {
  it('changes a draft and keeps it a draft', async () => {
    const id = (await journey()).data.id;
    const res = await send<Doc>(h, 'PATCH', path(id), { attributes: { name: 'Renamed' } });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ name: 'Renamed', state: 'draft' });
    expect(res.body.data.attributes.journeyStages).toHaveLength(1);
  });

  it('launches a draft with state "launched", setting launchedAt', async () => {
    const id = (await journey()).data.id;
    h.clock.advance(DAY);
    const res = await send<Doc>(h, 'PATCH', path(id), { attributes: { state: 'launched' } });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ state: 'launched', launchedAt: '2026-11-23T09:00:00Z' });
  });

  it('refuses any change to a launched journey with 409, unlaunching included', async () => {
    const id = await launched();
    for (const attributes of [{ name: 'Renamed' }, { state: 'draft' }, { state: 'launched' }]) {
      const res = await send(h, 'PATCH', path(id), { attributes });
      expect(res.status).toBe(409);
      expect(message(res)).toMatch(/launched.*can no longer change.*Duplicate it/);
    }
    const abTest = await send(h, 'POST', path(id), { type: 'ABTest', variants: [], precedingStepId: 'w' });
    expect(abTest.status).toBe(409);
  });

  it('refuses any change to a paused launched journey with 409 too', async () => {
    const id = await pausedJourney();
    for (const attributes of [{ name: 'Renamed while paused' }, { state: 'draft' }]) {
      const res = await send(h, 'PATCH', path(id), { attributes });
      expect(res.status).toBe(409);
      expect(message(res)).toMatch(/launched.*can no longer change/);
    }
    const after = await send<Doc>(h, 'GET', path(id));
    expect(after.body.data.attributes).toMatchObject({ name: 'Welcome', state: 'launched', paused: true });
  });

  it('refuses a body for another journey than the path names', async () => {
    const id = (await journey()).data.id;
    const res = await send(h, 'PATCH', path(id), { id: '424242', attributes: { name: 'X' } });
    expect(res.status).toBe(400);
    expect(message(res)).toContain('424242');
  });
});

describe('pause and resume', () => {
  it('pauses a running journey, then resumes it and records the pause period', async () => {
    const id = await launched();
    h.clock.advance(DAY);
    const paused = await send<Doc>(h, 'PATCH', path(id, '/pause'));
    expect(paused.body.data.attributes).toMatchObject({ paused: true, pausedAt: '2026-11-23T09:00:00Z' });
    h.clock.advance(2 * DAY);
    const resumed = await send<Doc>(h, 'PATCH', path(id, '/resume'));
    expect(resumed.body.data.attributes).toMatchObject({ paused: false, pausedAt: null, state: 'launched' });
    const period = await eventsOf(h.deps.storage.db, world.account.accountId, Number(id), 'pause_period');
    const start = Date.UTC(2026, 10, 23, 9);
    expect(period.map((e) => [e.started_at, e.ended_at])).toEqual([[start, start + 2 * DAY]]);
  });

  it('refuses to pause a draft or a paused journey, and to resume a draft or a running one', async () => {
    const draft = (await journey()).data.id;
    const running = await launched();
    const paused = await pausedJourney();
    const cases: Array<[string, string, RegExp]> = [
      [draft, '/pause', /draft.*launch it first/],
      [paused, '/pause', /already paused since 2026-11-22T09:00:00Z/],
      [draft, '/resume', /draft.*launch it instead/],
      [running, '/resume', /running, not paused/],
    ];
    for (const [id, action, why] of cases) {
      const res = await send(h, 'PATCH', path(id, action));
      expect(res.status, `${action} ${id}`).toBe(409);
      expect(message(res)).toMatch(why);
    }
  });
});

describe('delete', () => {
  it('deletes a draft and a paused journey; a running one must be paused first', async () => {
    const draft = (await journey()).data.id;
    const running = await launched();
    const paused = await pausedJourney();
    expect((await send(h, 'DELETE', path(draft))).body).toEqual({
      data: { id: draft, type: 'journey' },
      meta: { deleted: true },
    });
    const refused = await send(h, 'DELETE', path(running));
    expect(refused.status).toBe(409);
    expect(message(refused)).toMatch(/pause it first/);
    expect((await send(h, 'DELETE', path(paused))).status).toBe(200);
    for (const id of [draft, paused]) expect((await send(h, 'GET', path(id))).status).toBe(404);
    expect((await send(h, 'GET', path(running))).status).toBe(200);
  });
});

describe('duplicate', () => {
  it('copies a launched journey into a new draft with copies of its activations', async () => {
    const source = await journey();
    const activation = await send<{ data: { id: string } }>(
      h,
      'POST',
      path(source.data.id, '/syndications'),
      activationBody(world),
    );
    const activationId = activation.body.data.id;
    const stages = [
      stage(world.segments['301'] as string, 'a', { a: act('e', activationId), e: end() }, { name: 'Send' }),
    ];
    const ready = await send<Doc>(h, 'PATCH', path(source.data.id), {
      attributes: { journeyStages: stages, state: 'launched' },
    });
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);

    const copy = await send<Doc>(h, 'POST', '/entities/journeys/duplicate', {
      id: source.data.id,
      type: 'journey',
      attributes: { name: 'Welcome again' },
      relationships: { parentFolder: { data: { id: world.rootFolderId, type: 'folder-segment' } } },
    });
    expect(copy.status, JSON.stringify(copy.body)).toBe(200);
    const attrs = copy.body.data.attributes;
    expect(attrs).toMatchObject({ name: 'Welcome again', state: 'draft', paused: false, launchedAt: null });
    const copiedActivations = copy.body.data.relationships.journeyActivationSteps.data.map((a) => a.id);
    expect(copiedActivations).toHaveLength(1);
    expect(copiedActivations[0]).not.toBe(activationId);
    expect(attrs.journeyStages[0]?.steps.a?.journeyActivationStepId).toBe(copiedActivations[0]);
    expect(attrs.journeyStages[0]?.id).not.toBe(ready.body.data.attributes.journeyStages[0]?.id);
    // The copy is complete, so it launches as it is.
    const launch = await send<Doc>(h, 'PATCH', path(copy.body.data.id), { attributes: { state: 'launched' } });
    expect(launch.status, JSON.stringify(launch.body)).toBe(200);
  });

  it('names the copy after the source when no name is given, and 404s for an unknown source', async () => {
    const source = await journey('draft', 'Nurture');
    const copy = await send<Doc>(h, 'POST', '/entities/journeys/duplicate', {
      id: Number(source.data.id),
      type: 'journey',
    });
    expect(copy.body.data.attributes.name).toBe('Copy of Nurture');
    expect((await send(h, 'POST', '/entities/journeys/duplicate', { id: '424242' })).status).toBe(404);
    expect((await send(h, 'POST', '/entities/journeys/duplicate', { name: 'no id' })).status).toBe(400);
  });
});

describe('activations across states', () => {
  it('can be added and changed on a launched journey; a schedule cannot change while paused', async () => {
    const id = await launched();
    const created = await send<{ data: { id: string } }>(h, 'POST', path(id, '/syndications'), activationBody(world));
    expect(created.status).toBe(200);
    const item = path(id, `/syndications/${created.body.data.id}`);
    const schedule = { attributes: { syndication_params: { scheduleOption: '10:00' } } };
    expect((await send(h, 'PATCH', item, schedule)).status).toBe(200);
    expect((await send(h, 'PATCH', path(id, '/pause'))).status).toBe(200);
    const refused = await send(h, 'PATCH', item, { attributes: { syndication_params: { schedule_type: 'daily' } } });
    expect(refused.status).toBe(409);
    expect(message(refused)).toMatch(/paused.*schedules cannot change \(scheduleType\).*resume/);
    const zone = await send(h, 'PATCH', item, { attributes: { syndicationParams: { timezone: 'Europe/Berlin' } } });
    expect(zone.status).toBe(409);
    const renamed = await send<{
      data: { attributes: { syndication_params: { name: string; scheduleOption: string } } };
    }>(h, 'PATCH', item, {
      attributes: { syndication_params: { name: 'Renamed while paused', scheduleOption: '10:00' } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.attributes.syndication_params).toMatchObject({
      name: 'Renamed while paused',
      scheduleOption: '10:00',
    });
    expect((await send(h, 'PATCH', path(id, '/resume'))).status).toBe(200);
    expect(
      (await send(h, 'PATCH', item, { attributes: { syndication_params: { schedule_type: 'daily' } } })).status,
    ).toBe(200);
  });

  it('cannot delete an activation a step uses', async () => {
    const id = (await journey()).data.id;
    const used = await send<{ data: { id: string } }>(h, 'POST', path(id, '/syndications'), activationBody(world));
    const spare = await send<{ data: { id: string } }>(h, 'POST', path(id, '/syndications'), activationBody(world));
    const stages = [stage(world.segments['301'] as string, 'a', { a: act('e', used.body.data.id), e: end() })];
    expect((await send(h, 'PATCH', path(id), { attributes: { journeyStages: stages } })).status).toBe(200);
    const refused = await send(h, 'DELETE', path(id, `/syndications/${used.body.data.id}`));
    expect(refused.status).toBe(409);
    expect(message(refused)).toMatch(/used by step a \(stage 1\)/);
    expect((await send(h, 'DELETE', path(id, `/syndications/${spare.body.data.id}`))).status).toBe(200);
    expect((await send(h, 'GET', path(id, `/syndications/${spare.body.data.id}`))).status).toBe(404);
  });
});

describe('from the console', () => {
  it('works with the session cookie and the console header, and not without the header', async () => {
    const cookie = await signIn(h);
    const body = { type: 'journey', attributes: { name: 'From the canvas', audienceId: world.parentSegmentId } };
    const made = await consoleCall(h, 'POST', '/entities/journeys', { cookie, json: body });
    expect(made.status).toBe(200);
    const { data } = (await made.json()) as Doc;
    const paused = await consoleCall(h, 'PATCH', path(data.id, '/pause'), { cookie, json: {} });
    expect(paused.status).toBe(409);
    const forged = await consoleCall(h, 'POST', '/entities/journeys', { cookie, json: body, noConsoleHeader: true });
    expect(forged.status).toBe(401);
  });
});
