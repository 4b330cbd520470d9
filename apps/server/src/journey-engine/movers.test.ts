import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { many, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import {
  DAY_MS,
  json,
  type LaunchedIds,
  launchScenario,
  type Person,
  seedParentSegment,
  seedSegments,
} from './fixture';

/**
 * Runs read and move only the profiles that may move (decision 0040): those whose segment memberships changed
 * since the last run and those whose wait or exit came due, read from the wake index. The engine package's
 * movers.test.ts holds the outcome equal to a run over everyone; here the server's path through the database.
 */

interface Summary {
  looked: number;
  changed: number;
  events: number;
  profiles: number;
}

describe('journey runs over the profiles that move', () => {
  let h: Harness;
  let T: number;
  let ids: LaunchedIds;
  const at = (day: number) => T + day * DAY_MS;
  const sec = (day: number) => Math.floor(at(day) / 1000);

  beforeEach(async () => {
    h = await createHarness();
    T = h.clock.now().getTime();
    // Key, VIP, and the days they become engaged, buyers and unsubscribed (0: never).
    const person = (key: string, vip: number, engaged: number, bought: number, unsub: number): Person => ({
      customer_id: key,
      vip,
      engaged_at: engaged && sec(engaged),
      bought_at: bought && sec(bought),
      unsub_at: unsub && sec(unsub),
    });
    const people = [
      person('p1', 1, 0, 0, 0),
      person('p2', 1, 0, 0, 0),
      person('p3', 1, 0, 0, 0),
      person('p4', 0, 4, 0, 6),
      person('p5', 0, 0, 5, 0),
      person('p6', 0, 0, 0, 0),
    ];
    const parentId = await seedParentSegment(h, people);
    ids = await launchScenario(h, parentId, await seedSegments(h, parentId));
  });
  afterEach(async () => {
    await h.close();
  });

  const run = async (day: number) => {
    h.clock.set(at(day));
    return (await json<{ data: Summary }>(h.call('POST', `/entities/journeys/${ids.journeyId}/run`))).data;
  };
  const wakes = async () =>
    Object.fromEntries(
      (
        await many<{ profile_key: string; wake_at: number | null }>(
          h.deps.storage.db,
          sql`SELECT profile_key, wake_at FROM journey_profile_states WHERE journey_id = ${Number(ids.journeyId)}
              ORDER BY profile_key`,
        )
      ).map((r) => [r.profile_key, r.wake_at === null ? null : Number(r.wake_at)]),
    );

  it('reads nobody when nobody moves, and only the profiles whose memberships changed or whose wait ended', async () => {
    expect(await run(0)).toMatchObject({ profiles: 6, looked: 6, changed: 6 });
    // Every wait ends on day 3 (the 20-day exit comes later).
    const waits = Object.fromEntries(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((k) => [k, at(3)]));
    expect(await wakes()).toEqual(waits);
    expect(await run(1)).toMatchObject({ profiles: 6, looked: 0, changed: 0, events: 0 });
    expect(await run(2)).toMatchObject({ looked: 0, changed: 0 });
    expect(await run(3)).toMatchObject({ looked: 6, changed: 6 });
    // At the End step only the 20-day exit of stage 1 is left to wait for.
    expect(await wakes()).toEqual(Object.fromEntries(Object.keys(waits).map((k) => [k, at(20)])));
    // p4 becomes engaged (milestone), p5 a buyer (goal), p4 unsubscribes (exit of stage 2): one profile each.
    expect(await run(4)).toMatchObject({ looked: 1, changed: 1 });
    expect(await run(5)).toMatchObject({ looked: 1, changed: 1 });
    expect(await run(6)).toMatchObject({ looked: 1, changed: 1 });
    // After a restart the memberships of the last run are gone: everyone is looked at once, nobody moves.
    h = await h.restart();
    expect(await run(7)).toMatchObject({ looked: 6, changed: 0, events: 0 });
    expect(await run(8)).toMatchObject({ looked: 0, changed: 0 });
    // Day 20: the four still in stage 1 are due, and leave.
    expect(await run(20)).toMatchObject({ looked: 4, changed: 4 });
    const left = await many<{ profile_key: string; left_reason: string }>(
      h.deps.storage.db,
      sql`SELECT profile_key, left_reason FROM journey_profile_states WHERE journey_id = ${Number(ids.journeyId)}
          ORDER BY profile_key`,
    );
    expect(left.map((r) => `${r.profile_key}:${r.left_reason}`)).toEqual([
      'p1:exit_after',
      'p2:exit_after',
      'p3:exit_after',
      'p4:exit_segment',
      'p5:goal',
      'p6:exit_after',
    ]);
    expect(await run(21)).toMatchObject({ looked: 0, changed: 0 });
  });

  it('looks again at waits a pause pushed back, moves nobody early, and stores their new wake time', async () => {
    const pauseOrResume = async (what: 'pause' | 'resume', day: number) => {
      h.clock.set(at(day));
      await json(h.call('PATCH', `/entities/journeys/${ids.journeyId}/${what}`));
    };
    await run(0);
    await pauseOrResume('pause', 1);
    await pauseOrResume('resume', 3);
    // The wake times stored on day 0 came before the pause: due now, but the waits end on day 5.
    expect(await run(3)).toMatchObject({ looked: 6, changed: 0, events: 0 });
    expect(Object.values(await wakes())).toEqual(Array(6).fill(at(5)));
    expect(await run(4)).toMatchObject({ looked: 1, changed: 1 }); // p4 engaged
    expect(await run(5)).toMatchObject({ looked: 5, changed: 5 });
  });
});
