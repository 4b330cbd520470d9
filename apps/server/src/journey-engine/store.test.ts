import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineEvent, ProfileState } from '@svc/journey-engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scenarioJourney } from '../../../../packages/journey-engine/src/testing/scenario';
import { insertId, many, type OpenedStorage, one, sql } from '../platform/storage';
import { openTestStorage, testBackend } from '../testing/storage';
import { eachStateRow, finishRun, insertRun, loadStates, type RunOutcome, saveRunInChunks } from './store';
import { loggedEventsOf } from './testing/loggedEvents';

let dir: string;
let storage: OpenedStorage;
let accountId: number;
let journeyId: number;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-engine-store-'));
  storage = await openTestStorage(dir);
  accountId = await insertId(storage.db, sql`INSERT INTO accounts (name, created_at) VALUES ('a', 0) RETURNING id`);
  journeyId = await insertId(
    storage.db,
    sql`INSERT INTO journeys (account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
          updated_at)
        VALUES (${accountId}, '1', '1', 'j', 'launched', 0, ${JSON.stringify(scenarioJourney())}, 0, 0) RETURNING id`,
  );
});
afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

const state = (key: string, status: ProfileState['status'] = 'active'): ProfileState => ({
  profileKey: key,
  status,
  stageId: 's1',
  stepId: 'w1',
  journeyEnteredAt: 1,
  stageEnteredAt: 1,
  stepEnteredAt: 1,
  entries: 1,
  leftAt: null,
  leftReason: null,
  variants: {},
  branches: {},
  held: false,
  lastRunAt: 1,
});

/** n profiles, each with a state and two events (entered the journey, then the stage). */
function outcome(n: number, broken?: string): RunOutcome {
  const changed = new Map<string, ProfileState>();
  const events: EngineEvent[] = [];
  for (let i = 0; i < n; i++) {
    const key = `p${i}`;
    // A status the table refuses makes that profile's transaction fail, as a crash there would.
    changed.set(key, state(key, key === broken ? ('broken' as ProfileState['status']) : 'active'));
    events.push({ at: 1, profileKey: key, type: 'journey_entered' } as EngineEvent);
    events.push({ at: 1, profileKey: key, type: 'stage_entered', stageId: 's1' } as EngineEvent);
  }
  return { changed, events, queued: [] };
}

const count = async (table: string) =>
  (await one<{ n: number }>(storage.db, sql`SELECT COUNT(*) AS n FROM ${sql.table(table)}`))?.n;
const runRow = (runId: number) => one(storage.db, sql`SELECT status, error FROM journey_runs WHERE id = ${runId}`);

describe(`saving a run in short transactions (${testBackend()})`, () => {
  it('saves every profile of a large run, and records the run once its last part is in', async () => {
    const db = storage.db;
    const runId = await insertRun(db, {
      accountId,
      journeyId,
      at: 1,
      trigger: 'request',
      status: 'error',
      error: 'saving',
    });
    const parts: number[] = [];
    await saveRunInChunks(
      db,
      accountId,
      journeyId,
      runId,
      outcome(2500),
      (tx) => finishRun(tx, accountId, runId, { status: 'success' }),
      async (partMs) => {
        parts.push(partMs);
      },
    );
    expect((await loadStates(db, accountId, journeyId)).size).toBe(2500);
    expect(await loggedEventsOf(db)).toHaveLength(5000);
    expect(await runRow(runId)).toEqual({ status: 'success', error: null });
    // Three parts of at most 1,000 profiles, with a pause between two parts.
    expect(parts).toHaveLength(2);
  });

  it('leaves each profile whole when a part fails: the saved ones moved, the others untouched, the run not finished', async () => {
    const db = storage.db;
    const runId = await insertRun(db, {
      accountId,
      journeyId,
      at: 1,
      trigger: 'request',
      status: 'error',
      error: 'saving',
    });
    // p1500 is in the second part of 1,000 profiles.
    await expect(
      saveRunInChunks(db, accountId, journeyId, runId, outcome(2500, 'p1500'), (tx) =>
        finishRun(tx, accountId, runId, { status: 'success' }),
      ),
    ).rejects.toThrow(/CHECK constraint/i);
    const states = await loadStates(db, accountId, journeyId);
    expect(states.size).toBe(1000);
    // Every saved profile has both its events, and no event belongs to a profile without its state.
    const perProfile = new Map<string, number>();
    for (const e of await loggedEventsOf(db)) perProfile.set(e.profileKey, (perProfile.get(e.profileKey) ?? 0) + 1);
    expect(perProfile.size).toBe(1000);
    for (const [key, n] of perProfile) {
      expect(states.has(key)).toBe(true);
      expect(n).toBe(2);
    }
    expect(await runRow(runId)).toEqual({ status: 'error', error: 'saving' });
  });

  it("keeps each profile whole when its events are spread over the run's order", async () => {
    const db = storage.db;
    const runId = await insertRun(db, { accountId, journeyId, at: 1, trigger: 'request', status: 'error' });
    // Everyone's first event, then everyone's second: a profile's two events lie 2,500 apart.
    const { changed } = outcome(2500, 'p1500');
    const keys = [...changed.keys()];
    const events: EngineEvent[] = [
      ...keys.map((key) => ({ at: 1, profileKey: key, type: 'journey_entered' }) as EngineEvent),
      ...keys.map((key) => ({ at: 2, profileKey: key, type: 'stage_entered', stageId: 's1' }) as EngineEvent),
    ];
    await expect(
      saveRunInChunks(db, accountId, journeyId, runId, { changed, events, queued: [] }, async () => undefined),
    ).rejects.toThrow(/CHECK constraint/i);
    const types = new Map<string, string[]>();
    for (const e of await loggedEventsOf(db)) types.set(e.profileKey, [...(types.get(e.profileKey) ?? []), e.type]);
    expect(types.size).toBe(1000);
    expect(new Set([...types.values()].map((t) => t.join(',')))).toEqual(new Set(['journey_entered,stage_entered']));
    expect([...types.keys()].every((key) => Number(key.slice(1)) < 1000)).toBe(true);
  });
});

describe(`the stored states a run read, and a deleted journey (${testBackend()})`, () => {
  it('appends the states not stored before, updates the others, and counts their positions once', async () => {
    const db = storage.db;
    const first = await insertRun(db, { accountId, journeyId, at: 1, trigger: 'request', status: 'success' });
    const before = outcome(3).changed;
    await saveRunInChunks(db, accountId, journeyId, first, { ...outcome(3), before: new Map() }, null);
    // The next run: p0 leaves, p1 is unchanged (not written), p3 enters; it read p0..p2 as stored.
    const second = await insertRun(db, { accountId, journeyId, at: 2, trigger: 'request', status: 'success' });
    const left = { ...state('p0', 'left'), leftAt: 2, leftReason: 'goal' as const, lastRunAt: 2 };
    const changed = new Map([
      ['p0', left],
      ['p3', state('p3')],
    ]);
    await saveRunInChunks(db, accountId, journeyId, second, { changed, events: [], queued: [], before }, null);
    const states = await loadStates(db, accountId, journeyId);
    expect([...states.keys()].sort()).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(states.get('p0')).toMatchObject({ status: 'left', leftAt: 2, leftReason: 'goal', lastRunAt: 2 });
    expect(states.get('p3')).toMatchObject({ status: 'active', stageId: 's1' });
    const positions = await many<{ status: string; profiles: number }>(
      db,
      sql`SELECT status, profiles FROM journey_positions WHERE journey_id = ${journeyId} ORDER BY status`,
    );
    expect(positions.map((p) => [p.status, Number(p.profiles)])).toEqual([
      ['active', 3],
      ['left', 1],
    ]);
    // A state said to be new that is stored already is refused, not written twice.
    const third = await insertRun(db, { accountId, journeyId, at: 3, trigger: 'request', status: 'success' });
    const again = { changed: new Map([['p1', state('p1')]]), events: [], queued: [], before: new Map() };
    await expect(saveRunInChunks(db, accountId, journeyId, third, again, null)).rejects.toThrow(/unique|duplicate/i);
  });

  it("takes the journey's rows with it when it is deleted, and saves nothing more of a run for it", async () => {
    const db = storage.db;
    const runId = await insertRun(db, { accountId, journeyId, at: 1, trigger: 'request', status: 'error' });
    const queued = [{ activationId: 'a1', profileKey: 'p0', stageId: 's1', stepId: 'x1', at: 1 }];
    const assigned = { at: 1, profileKey: 'p1', type: 'variant_assigned', stepId: 'ab', variantId: 'v1', bucket: 7 };
    const saved = outcome(1500);
    await saveRunInChunks(
      db,
      accountId,
      journeyId,
      runId,
      { ...saved, events: [...saved.events, assigned as EngineEvent], queued, before: new Map() },
      null,
    );
    const tables = ['journey_profile_states', 'journey_run_events', 'journey_activation_queue'];
    const counts = async () => {
      const all = [...tables, 'journey_ab_assignments'];
      return Promise.all(all.map(async (t) => Number(await count(t))));
    };
    // The log holds a row per profile of the run (p1's assignment is in its row): 3,001 events.
    expect(await counts()).toEqual([1500, 1500, 1, 1]);
    expect(await loggedEventsOf(db)).toHaveLength(3001);
    await db.deleteFrom('journeys').where('id', '=', journeyId).execute();
    expect(await counts()).toEqual([0, 0, 0, 0]);
    await expect(saveRunInChunks(db, accountId, journeyId, runId, outcome(10), null)).rejects.toThrow(
      /journey was deleted/,
    );
    expect(await counts()).toEqual([0, 0, 0, 0]);
  });
});

describe(`reading states in pages (${testBackend()})`, () => {
  it('visits every state once, or every due one in wake order, across pages and equal wake times', async () => {
    const db = storage.db;
    const runId = await insertRun(db, { accountId, journeyId, at: 1, trigger: 'request', status: 'success' });
    const changed = new Map<string, ProfileState>();
    const wakes = new Map<string, number | null>();
    for (let i = 0; i < 23; i++) {
      const key = `k${String(i).padStart(2, '0')}`;
      changed.set(key, state(key));
      // Wake times 100, 100, 100, 200, …, with every fifth profile not waiting.
      wakes.set(key, i % 5 === 4 ? null : 100 * (1 + Math.floor(i / 3)));
    }
    await saveRunInChunks(
      db,
      accountId,
      journeyId,
      runId,
      { changed, wakes, events: [], queued: [] },
      async () => undefined,
    );
    const all: string[] = [];
    await eachStateRow(db, accountId, journeyId, (r) => all.push(r.profile_key), undefined, 4);
    expect(all).toEqual([...changed.keys()]);
    const due: [number | null, string][] = [];
    await eachStateRow(db, accountId, journeyId, (r) => due.push([Number(r.wake_at), r.profile_key]), 500, 2);
    const expected = [...wakes]
      .filter((e): e is [string, number] => e[1] !== null && e[1] <= 500)
      .map(([key, wake]): [number, string] => [wake, key])
      .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    expect(due).toEqual(expected);
    expect(due.length).toBeGreaterThan(8);
  });
});
