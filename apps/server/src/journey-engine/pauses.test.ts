import { afterEach, describe, expect, it } from 'vitest';
import { findJourneyRow } from '../journeys';
import { createHarness, type Harness } from '../testing/harness';
import { DAY_MS, json, launchScenario, type Person, seedParentSegment, seedSegments } from './fixture';
import { pausesOf } from './runner';

/**
 * The pause intervals the engine runs with (`pausesOf`, the one implementation): every pause/resume pair is a
 * closed interval, a pause still going on is open, and both survive a restart of the service; waits count only
 * the time the journey was running.
 */
describe('pause intervals over pauses, resumes and restarts', () => {
  let h: Harness;
  afterEach(() => h?.close());

  it('records each pause, keeps the open one across a restart, and moves waits by the paused time', async () => {
    h = await createHarness();
    const T = h.clock.now().getTime();
    const at = (day: number) => T + day * DAY_MS;
    const people: Person[] = [{ customer_id: 'p1', vip: 0, engaged_at: 0, bought_at: 0, unsub_at: 0 }];
    const parentId = await seedParentSegment(h, people);
    const { journeyId } = await launchScenario(h, parentId, await seedSegments(h, parentId));
    const intervals = async () => {
      const row = await findJourneyRow(h.deps.storage.db, h.admin.accountId, journeyId);
      if (!row) throw new Error('the journey is gone');
      return pausesOf(h.deps.storage.db, row);
    };
    const patch = (action: 'pause' | 'resume') => json(h.call('PATCH', `/entities/journeys/${journeyId}/${action}`));
    const waitingUntil = async () =>
      (
        await json<{ data: Array<{ waitingUntil: string | null }> }>(
          h.call('GET', `/entities/journeys/${journeyId}/customers`),
        )
      ).data[0]?.waitingUntil;

    await json(h.call('POST', `/entities/journeys/${journeyId}/run`));
    expect(await waitingUntil()).toBe(new Date(at(3)).toISOString());
    expect(await intervals()).toEqual([]);

    h.clock.set(at(1));
    await patch('pause');
    expect(await intervals()).toEqual([{ from: at(1), to: null }]);
    h.clock.set(at(2));
    await patch('resume');
    h.clock.set(at(2.5));
    await patch('pause');
    expect(await intervals()).toEqual([
      { from: at(1), to: at(2) },
      { from: at(2.5), to: null },
    ]);

    // A restart (as after a crash) reads the same intervals from storage, the open pause included.
    h.clock.set(at(3));
    h = await h.restart();
    expect(await intervals()).toEqual([
      { from: at(1), to: at(2) },
      { from: at(2.5), to: null },
    ]);
    h.clock.set(at(3.5));
    await patch('resume');
    expect(await intervals()).toEqual([
      { from: at(1), to: at(2) },
      { from: at(2.5), to: at(3.5) },
    ]);
    // Three days of waiting, plus the two days paused.
    expect(await waitingUntil()).toBe(new Date(at(5)).toISOString());
    h.clock.set(at(4.9));
    await json(h.call('POST', `/entities/journeys/${journeyId}/run`));
    expect(await waitingUntil()).toBe(new Date(at(5)).toISOString());
  });
});
