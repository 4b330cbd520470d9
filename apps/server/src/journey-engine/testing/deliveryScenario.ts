import { expect } from 'vitest';
import { getJourneyRow } from '../../journeys';
import { createHarness, type Harness } from '../../testing/harness';
import { DAY_MS, type LaunchedIds, launchScenario, type Person, seedParentSegment, seedSegments } from '../fixture';
import { runJourneyNow } from '../runner';

/** A launched journey over six VIP profiles, whose offer variant queues an activation's deliveries. */
export interface DeliveryScenario {
  h: Harness;
  /** The clock's start: day 0 of the journey. */
  T: number;
  ids: LaunchedIds;
}

const sixVips: Person[] = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((id) => ({
  customer_id: id,
  vip: 1,
  engaged_at: 0,
  bought_at: 0,
  unsub_at: 0,
}));

export async function startDeliveryScenario(): Promise<DeliveryScenario> {
  const h = await createHarness();
  const T = h.clock.now().getTime();
  const parentId = await seedParentSegment(h, sixVips);
  const ids = await launchScenario(h, parentId, await seedSegments(h, parentId));
  return { h, T, ids };
}

/**
 * Runs day 0 and day 3 as the schedule does (no delivery yet), so the profiles in the offer variant are
 * queued; returns their keys.
 */
export async function queueOffers({ h, T, ids }: DeliveryScenario): Promise<string[]> {
  const runAt = async (at: number) => {
    h.clock.set(at);
    await runJourneyNow(h.deps, await getJourneyRow(h.deps.storage.db, h.admin.accountId, ids.journeyId), 'schedule');
  };
  await runAt(T);
  await runAt(T + 3 * DAY_MS);
  const queued = (
    await h.deps.storage.db
      .selectFrom('journey_activation_queue')
      .select('profile_key')
      .orderBy('profile_key')
      .execute()
  ).map((r) => r.profile_key);
  expect(queued.length).toBeGreaterThan(0);
  return queued;
}
