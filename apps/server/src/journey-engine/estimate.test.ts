import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getJourneyRow } from '../journeys';
import { createHarness, type Harness } from '../testing/harness';
import { estimateJourney } from './estimate';
import { DAY_MS, json, launchScenario, type Person, seedParentSegment, seedSegments } from './fixture';
import { simulateJourney } from './simulation';

interface StageEstimate {
  stageId: string;
  name: string;
  matchingEntry: number;
  entering: number;
  takenByLaterStage: number;
  keptOut: number;
  exiting: number;
}
interface Estimate {
  data: {
    profiles: number;
    alreadyIn: number;
    entering: number;
    stages: StageEstimate[];
    goal: { reaching: number; inGoalNow: number };
    exiting: number;
    queued: number;
    rule: string;
  };
}
interface Statistics {
  data: { entered: number; goalReached: number; stages: Array<{ stageId: string; entered: number }> };
}

describe('the estimate before launch and the simulation sample', () => {
  let h: Harness;
  let T: number;
  let ids: Awaited<ReturnType<typeof launchScenario>>;
  let seg: Awaited<ReturnType<typeof seedSegments>>;
  let parentId: string;
  const sec = (day: number) => Math.floor((T + day * DAY_MS) / 1000);

  beforeEach(async () => {
    h = await createHarness();
    T = h.clock.now().getTime();
    const people: Person[] = [
      { customer_id: 'p1', vip: 1, engaged_at: 0, bought_at: 0, unsub_at: 0 },
      // Engaged already: matches both stages and starts in the later one.
      { customer_id: 'p2', vip: 0, engaged_at: sec(-1), bought_at: 0, unsub_at: 0 },
      // Bought already: in the goal segment, so kept out although "Everyone" matches.
      { customer_id: 'p3', vip: 1, engaged_at: 0, bought_at: sec(-1), unsub_at: 0 },
      { customer_id: 'p4', vip: 0, engaged_at: sec(2), bought_at: 0, unsub_at: 0 },
      { customer_id: 'p5', vip: 1, engaged_at: 0, bought_at: 0, unsub_at: 0 },
    ];
    parentId = await seedParentSegment(h, people);
    seg = await seedSegments(h, parentId);
    ids = await launchScenario(h, parentId, seg);
  });
  afterEach(() => h.close());

  const estimate = (journeyId: string) => json<Estimate>(h.call('GET', `/entities/journeys/${journeyId}/estimate`));
  const statistics = () => json<Statistics>(h.call('GET', `/entities/journeys/${ids.journeyId}/statistics`));

  it('estimates each stage’s entries with the overlap rule, and the first run gives the same counts', async () => {
    const before = (await estimate(ids.journeyId)).data;
    expect(before.profiles).toBe(5);
    expect(before.alreadyIn).toBe(0);
    expect(before.rule).toMatch(/from the last to the first/);
    expect(before.goal.inGoalNow).toBe(1);
    expect(before.stages.map((s) => [s.name, s.matchingEntry, s.entering, s.takenByLaterStage, s.keptOut])).toEqual([
      ['Onboard', 5, 3, 1, 1],
      ['Engaged', 1, 1, 0, 0],
    ]);
    expect(before.entering).toBe(4);
    // Nothing was stored by the estimate.
    expect((await statistics()).data.entered).toBe(0);

    const run = await json<{ data: { queued: number } }>(h.call('POST', `/entities/journeys/${ids.journeyId}/run`));
    const after = (await statistics()).data;
    expect(after.entered).toBe(before.entering);
    expect(after.goalReached).toBe(before.goal.reaching);
    expect(run.data.queued).toBe(before.queued);
    for (const stage of before.stages) {
      expect(after.stages.find((s) => s.stageId === stage.stageId)?.entered).toBe(stage.entering);
    }

    // Later, a launched journey is estimated from where its profiles are: p4 becomes engaged on day 2.
    h.clock.set(T + 2 * DAY_MS);
    const later = (await estimate(ids.journeyId)).data;
    expect(later.alreadyIn).toBe(4);
    expect(later.stages.map((s) => s.entering)).toEqual([0, 1]);
  });

  it('gives the same estimate whatever the batch of profiles played at once', async () => {
    const row = await getJourneyRow(h.deps.storage.db, h.admin.accountId, ids.journeyId);
    const whole = (await estimateJourney(h.deps, row)).data;
    expect(whole.entering).toBe(4);
    for (const batch of [1, 2, 3]) expect((await estimateJourney(h.deps, row, batch)).data).toEqual(whole);
    // Launched and later, with profiles in the journey: the same again.
    await json(h.call('POST', `/entities/journeys/${ids.journeyId}/run`));
    h.clock.set(T + 2 * DAY_MS);
    const launched = await getJourneyRow(h.deps.storage.db, h.admin.accountId, ids.journeyId);
    const later = (await estimateJourney(h.deps, launched)).data;
    expect(later.alreadyIn).toBe(4);
    for (const batch of [1, 2]) expect((await estimateJourney(h.deps, launched, batch)).data).toEqual(later);
  });

  it('estimates a draft copy as at its launch', async () => {
    const copy = await json<{ data: { id: string } }>(
      h.call('POST', '/entities/journeys/duplicate', {
        json: { id: ids.journeyId, type: 'journey', attributes: { name: 'Welcome, copy' } },
      }),
    );
    const draft = (await estimate(copy.data.id)).data;
    expect(draft.stages.map((s) => s.entering)).toEqual([3, 1]);
    const missing = await h.call('GET', '/entities/journeys/999999/estimate');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status_code: 404, message: expect.any(String) });
  });

  it('samples only profiles that enter, and says so when none would', async () => {
    const sample = await json<{ data: Array<{ profileKey: string; steps: Array<{ type: string }> }> }>(
      h.call('POST', `/entities/journeys/${ids.journeyId}/simulation`, { json: { sample: 20, days: 1 } }),
    );
    expect(sample.data.map((p) => p.profileKey)).toEqual(['p1', 'p2', 'p4', 'p5']);
    for (const p of sample.data) expect(p.steps.some((s) => s.type === 'journey_entered')).toBe(true);

    // Buyers enter, but buying is the goal: nobody would ever enter.
    const created = await json<{ data: { id: string } }>(
      h.call('POST', '/entities/journeys', {
        json: {
          data: {
            type: 'journey',
            attributes: {
              name: 'Buyers',
              audienceId: parentId,
              goal: { name: 'Bought', segmentId: seg.buyer },
              journeyStages: [
                {
                  name: 'Thanks',
                  entryCriteria: { name: 'Buyers', segmentId: seg.buyer },
                  rootStep: 'end',
                  steps: { end: { type: 'End' } },
                },
              ],
            },
          },
        },
      }),
    );
    const none = await json<{ data: unknown[]; meta: { note: string } }>(
      h.call('POST', `/entities/journeys/${created.data.id}/simulation`, { json: { sample: 5 } }),
    );
    expect(none.data).toEqual([]);
    expect(none.meta.note).toMatch(/^None of the 1 profiles matching an entry criterion would enter/);
  });

  it('draws the same sample whatever the page of states read at once, from where launched profiles are', async () => {
    await json(h.call('POST', `/entities/journeys/${ids.journeyId}/run`));
    h.clock.set(T + DAY_MS);
    const row = await getJourneyRow(h.deps.storage.db, h.admin.accountId, ids.journeyId);
    const keysOf = async (req: { sample: number; days: number }, page?: number) =>
      (await simulateJourney(h.deps, row, req, page)).data.map((p) => [p.profileKey, p.startedInJourney]);
    const whole = await keysOf({ sample: 20, days: 1 });
    expect(whole).toEqual([
      ['p1', true],
      ['p2', true],
      ['p4', true],
      ['p5', true],
    ]);
    for (const page of [1, 2, 3]) expect(await keysOf({ sample: 20, days: 1 }, page)).toEqual(whole);
    expect(await keysOf({ sample: 3, days: 1 }, 2)).toEqual(whole.slice(0, 3));
  });
});
