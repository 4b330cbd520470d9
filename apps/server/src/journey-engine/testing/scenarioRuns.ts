import type { Journey } from '@svc/journey';
import { expect } from 'vitest';
import { SEG } from '../../../../../packages/journey-engine/src/testing/scenario';
import type { World } from '../../../../../packages/journey-engine/src/testing/world';
import { type Executor, insertId, many, sql } from '../../platform/storage';
import type { Population } from '../population';

/** Runs of the engine scenario straight on the store (no API): its journey, population and reference. */

/** An account and a launched journey of `journey`'s document in it. */
export async function insertLaunchedJourney(db: Executor, journey: Journey) {
  const accountId = await insertId(db, sql`INSERT INTO accounts (name, created_at) VALUES ('a', 0) RETURNING id`);
  const journeyId = await insertId(
    db,
    sql`INSERT INTO journeys (account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
          updated_at)
        VALUES (${accountId}, '1', '1', 'j', 'launched', 0, ${JSON.stringify(journey)}, 0, 0) RETURNING id`,
  );
  return { accountId, journeyId };
}

/** The scenario's population of `keys`: everyone in the entry segment, every third a VIP. */
export function scenarioPopulation(keys: ReadonlyArray<string>): Population {
  const members = new Map([
    [SEG.entry as string, new Set(keys)],
    [SEG.vip as string, new Set(keys.filter((_, i) => i % 3 === 0))],
  ]);
  return {
    profiles: keys.map((key) => ({ key, columns: { customer_id: `C-${key}` } })),
    members,
    isMember: (segmentId, key) => members.get(segmentId)?.has(key) ?? false,
  };
}

/** Expects the journey's stored states to be the in-memory reference's, profile by profile. */
export async function expectStatesOfWorld(db: Executor, journeyId: number, w: World): Promise<void> {
  const states = await many<{ profile_key: string; status: string; stage_id: string; step_id: string | null }>(
    db,
    sql`SELECT profile_key, status, stage_id, step_id, variants, branches FROM journey_profile_states
        WHERE journey_id = ${journeyId} ORDER BY profile_key`,
  );
  expect(states).toEqual(
    [...w.states.values()]
      .sort((a, b) => (a.profileKey < b.profileKey ? -1 : 1))
      .map((s) => ({
        profile_key: s.profileKey,
        status: s.status,
        stage_id: s.stageId,
        step_id: s.stepId,
        variants: JSON.stringify(s.variants),
        branches: JSON.stringify(s.branches),
      })),
  );
}
