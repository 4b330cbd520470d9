import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEG, scenarioJourney } from '../../../../packages/journey-engine/src/testing/scenario';
import { day, World } from '../../../../packages/journey-engine/src/testing/world';
import { many, type OpenedStorage, sql, transaction } from '../platform/storage';
import { openTestStorage, testBackend } from '../testing/storage';
import { moveAndSave } from './move';
import { type KeptRuns, populationOfProfiles } from './movers';
import { positionsOf, recountPositions } from './positions';
import { loggedEventsOf } from './testing/loggedEvents';
import { expectStatesOfWorld, insertLaunchedJourney, scenarioPopulation } from './testing/scenarioRuns';

/**
 * A run moves and saves its profiles a batch at a time (move.ts RUN_BATCH, 50,000): runs in batches of 7 give
 * exactly the states, events, queue and run counts of the engine's in-memory reference, through the days of the
 * scenario (everyone enters, waits end, decisions, A/B tests, activations), with and without kept memberships.
 */

const N = 60;
const keys = Array.from({ length: N }, (_, i) => `k${String(i).padStart(3, '0')}`);
const reference = scenarioPopulation(keys);
const population = () => populationOfProfiles(reference, 'inputs');
/** Profiles each day's run looks at: everyone on day 0, at the waits' end (3), on a node that kept nothing (4), at
 * the 20-day exit (25); nobody on the quiet days. Each profile once, never twice in a run. */
const lookedOn: Record<number, number> = { 0: N, 1: 0, 3: N, 4: N, 8: 0, 25: N };

let dir: string;
let storage: OpenedStorage;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-engine-batches-'));
  storage = await openTestStorage(dir);
});
afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

describe(`a run in batches of profiles (${testBackend()})`, () => {
  it('gives the outcome of one run over everyone, and records the whole run once', async () => {
    const db = storage.db;
    const journey = scenarioJourney();
    const { accountId, journeyId } = await insertLaunchedJourney(db, journey);
    const w = new World(journey, String(journeyId));
    w.profiles = keys.map((key) => ({ key, columns: { customer_id: `C-${key}` } }));
    w.join(SEG.entry, ...keys);
    w.join(SEG.vip, ...(reference.members.get(SEG.vip) ?? []));
    let kept: KeptRuns = new Map();
    const parts: number[] = [];
    const positions = async () =>
      (await positionsOf(db, accountId, journeyId)).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    for (const d of [0, 1, 3, 4, 8, 25]) {
      const before = w.events.length;
      const queuedBefore = w.queued.length;
      w.run(day(d));
      // Day 4 runs on a node that kept nothing (a restart): everyone, their stored states read batch by batch.
      if (d === 4) kept = new Map();
      const moved = await moveAndSave(storage, {
        accountId,
        journeyId,
        journey,
        pauses: [],
        population: population(),
        // Other days read the movers through the memberships kept from the day before: the wake index is walked
        // in pages of 7 rows, each read after the batch before it was saved.
        kept,
        at: day(d),
        trigger: 'schedule',
        batch: 7,
        between: async (ms) => {
          parts.push(ms);
        },
      });
      expect(moved.counts.events).toBe(w.events.length - before);
      expect(moved.looked).toBe(lookedOn[d]);
      expect(moved.counts.queued).toBe(w.queued.length - queuedBefore);
      const row = await many<{ status: string; error: string | null; events: number; changed: number }>(
        db,
        sql`SELECT status, error, events, changed FROM journey_runs WHERE id = ${moved.runId}`,
      );
      expect(row.map((r) => [r.status, r.error, Number(r.events), Number(r.changed)])).toEqual([
        ['success', null, moved.counts.events, moved.counts.changed],
      ]);
      // The position counts the run kept are those of the states.
      const counted = await positions();
      await transaction(db, (tx) => recountPositions(tx, accountId, journeyId));
      expect(counted).toEqual(await positions());
      expect(counted.reduce((n, p) => n + p.profiles, 0)).toBe(N);
    }
    // Everyone entered on day 0 in 9 batches: the save paused between them.
    expect(parts.length).toBeGreaterThanOrEqual(8);
    await expectStatesOfWorld(db, journeyId, w);
    const events = (await loggedEventsOf(db, journeyId))
      .map((e, i) => ({ e, i }))
      .sort((a, b) => (a.e.profileKey < b.e.profileKey ? -1 : a.e.profileKey > b.e.profileKey ? 1 : a.i - b.i))
      .map(({ e }) => ({ profile_key: e.profileKey, type: e.type, at: e.at }));
    const expected = [...w.events]
      .map((e, i) => ({ e, i }))
      .sort((a, b) => (a.e.profileKey < b.e.profileKey ? -1 : a.e.profileKey > b.e.profileKey ? 1 : a.i - b.i))
      .map(({ e }) => ({ profile_key: e.profileKey, type: e.type, at: e.at }));
    expect(events.map((e) => ({ ...e, at: Number(e.at) }))).toEqual(expected);
    const queue = await many<{ n: number }>(
      db,
      sql`SELECT COUNT(*) AS n FROM journey_activation_queue WHERE journey_id = ${journeyId}`,
    );
    expect(Number(queue[0]?.n)).toBe(w.queued.length);
    expect(w.queued.length).toBeGreaterThan(0);
  });
});

describe(`planner statistics after a large run (${testBackend()})`, () => {
  it('has PostgreSQL sample the states when a run changed a tenth of the parent segment or more', async () => {
    const db = storage.db;
    const journey = scenarioJourney();
    const { accountId, journeyId } = await insertLaunchedJourney(db, journey);
    const twelveHundred = Array.from({ length: 1200 }, (_, i) => `p${i}`);
    const moved = await moveAndSave(storage, {
      accountId,
      journeyId,
      journey,
      pauses: [],
      population: populationOfProfiles(scenarioPopulation(twelveHundred), 'inputs'),
      at: day(0),
      trigger: 'schedule',
    });
    expect(moved.counts.changed).toBe(1200);
    if (storage.backend === 'postgres') {
      // Never sampled, a table says -1 rows; ANALYZE counts the 1,200 states.
      const stats = await many<{ rows: number }>(
        db,
        sql`SELECT reltuples AS rows FROM pg_class WHERE oid = 'journey_profile_states'::regclass`,
      );
      expect(stats.map((r) => Number(r.rows))).toEqual([1200]);
    } else {
      // SQLite plans from its indexes: no statistics table is written.
      const stat = await many(db, sql`SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'`);
      expect(stat).toEqual([]);
    }
  });
});
