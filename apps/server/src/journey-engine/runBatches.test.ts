import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scenarioJourney } from '../../../../packages/journey-engine/src/testing/scenario';
import { day } from '../../../../packages/journey-engine/src/testing/world';
import type { OpenedStorage } from '../platform/storage';
import { openTestStorage, testBackend } from '../testing/storage';
import { moveAndSave } from './move';
import { populationOfProfiles } from './movers';
import { moverBatches } from './runBatches';
import { insertLaunchedJourney, scenarioPopulation } from './testing/scenarioRuns';

/**
 * The walk of the wake index reads each page after the batch before it was saved (runBatches.ts): a profile saved
 * with a wake time still due, later in the walk's order, comes up again unless the run says it is settled.
 */

const keys = Array.from({ length: 6 }, (_, i) => `k${i}`);
let dir: string;
let storage: OpenedStorage;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-engine-run-batches-'));
  storage = await openTestStorage(dir);
});
afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(`the walk of a run's due profiles in batches (${testBackend()})`, () => {
  it('takes each due profile once, also when a saved one is due again further on', async () => {
    const db = storage.db;
    const journey = scenarioJourney();
    const { accountId, journeyId } = await insertLaunchedJourney(db, journey);
    const population = populationOfProfiles(scenarioPopulation(keys), 'inputs');
    // Everyone enters on day 0 and waits until day 3.
    await moveAndSave(storage, {
      accountId,
      journeyId,
      journey,
      pauses: [],
      population,
      at: day(0),
      trigger: 'schedule',
    });
    const at = day(3) + 1000;
    const wakeK0 = (wake: number) =>
      db
        .updateTable('journey_profile_states')
        .set({ wake_at: wake })
        .where('journey_id', '=', journeyId)
        .where('profile_key', '=', 'k0')
        .execute();
    const walk = async (settle: boolean) => {
      await wakeK0(day(3));
      const settled = new Set<string>();
      const seen: string[] = [];
      const scope = { db, accountId, journeyId, size: 2 };
      for await (const batch of moverBatches(scope, population, new Set(), at, settled)) {
        seen.push(...batch.profiles.map((p) => p.key));
        // As a save would: the batch's first profile is written due again, after every other wake time.
        if (batch.profiles[0]?.key === 'k0') {
          await wakeK0(day(3) + 500);
          if (settle) settled.add('k0');
        }
      }
      return seen;
    };
    // Unsettled, the walk meets k0 again at the end (so the guard has something to do) ...
    expect(await walk(false)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k0']);
    // ... settled, it does not.
    expect(await walk(true)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5']);
  });
});
