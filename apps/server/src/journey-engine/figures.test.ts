import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journeyStatistics, type RunResult, type StatisticsWindow, shapeStatistics } from '@svc/journey-engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../packages/journey/src/testing/prng';
import { SEG, scenarioJourney } from '../../../../packages/journey-engine/src/testing/scenario';
import { day, World } from '../../../../packages/journey-engine/src/testing/world';
import { insertId, many, type OpenedStorage, sql } from '../platform/storage';
import { openTestStorage, testBackend } from '../testing/storage';
import { countTally } from './countTally';
import { eventsBetween } from './eventLog';
import { recountFigures } from './figureCounts';
import { logTally, statisticsTally } from './figures';
import { insertRun, loadStates, saveRun } from './store';

/**
 * The statistics the database counts (figures.ts) against those of the engine package over the whole event
 * log and every state (journeyStatistics, how the server counted before decision 0033): the same answer,
 * figure for figure, on the scenario played day by day and over random schedules of runs, pauses and segment
 * changes, for windows of every kind.
 */

let dir: string;
let storage: OpenedStorage;
let accountId: number;
let journeyId: number;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-engine-figures-'));
  storage = await openTestStorage(dir);
  accountId = await insertId(storage.db, sql`INSERT INTO accounts (name, created_at) VALUES ('a', 0) RETURNING id`);
});
afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

async function newJourney(w: World): Promise<number> {
  return insertId(
    storage.db,
    sql`INSERT INTO journeys (account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
          updated_at)
        VALUES (${accountId}, '1', '1', 'j', 'launched', 0, ${JSON.stringify(w.journey)}, 0, 0) RETURNING id`,
  );
}

/** Runs the world at `at` and saves the outcome as the server's run does. */
async function runAndSave(w: World, at: number): Promise<RunResult> {
  const result = w.run(at);
  const runId = await insertRun(storage.db, { accountId, journeyId, at, trigger: 'schedule', status: 'success' });
  await saveRun(storage.db, accountId, journeyId, runId, result);
  return result;
}

/** Both ways of counting, for one window: the database's figures, and the engine's over the stored log. */
async function both(w: World, window: StatisticsWindow) {
  const db = storage.db;
  const counted = shapeStatistics(
    String(journeyId),
    w.journey,
    await statisticsTally(db, accountId, journeyId, window),
    window,
  );
  const events = await eventsBetween(db, accountId, journeyId, window.from, window.to);
  const states = (await loadStates(db, accountId, journeyId)).values();
  const reference = journeyStatistics(String(journeyId), w.journey, events, states, window);
  // The stored log is the engine's own: nothing was lost on the way to the database.
  expect(journeyStatistics(String(journeyId), w.journey, w.events, w.states.values(), window)).toEqual(reference);
  return { counted, reference };
}

const nonZero = (m: ReadonlyMap<string, number>) => new Map([...m].filter(([, n]) => n !== 0));

/**
 * Whether the counts the runs kept (figureCounts.ts, per day and per run instant) answer the window; when they do,
 * their figures are those counted over the log, every one.
 */
async function countsAgree(window: StatisticsWindow): Promise<boolean> {
  const db = storage.db;
  const counted = await countTally(db, accountId, journeyId, window);
  if (!counted) return false;
  const log = await logTally(db, accountId, journeyId, window);
  expect(nonZero(counted.profiles), JSON.stringify(window)).toEqual(nonZero(log.profiles));
  expect(counted.entries).toBe(log.entries);
  // Whether the A/B tallies came from their counts too (statisticsTally, compared by `both`), with profiles.
  if (counted.variants && counted.variants.size > 0) abAnswers++;
  if (window.from % 86_400_000 !== 0 || (window.to + 1) % 86_400_000 !== 0) partialAnswers++;
  return true;
}
let abAnswers = 0;
let partialAnswers = 0;

type Position = { status: string; stage_id: string; step_id: string; profiles: number };
const positions = (rows: Array<Omit<Position, 'profiles'> & { profiles: number | string }>) =>
  rows.map((r) => ({ ...r, profiles: Number(r.profiles) }));

/** The journey's position counts as the runs kept them (journey_positions, migration 45). */
const positionsKept = async () =>
  positions(
    await many(
      storage.db,
      sql`SELECT status, stage_id, step_id, profiles FROM journey_positions
          WHERE account_id = ${accountId} AND journey_id = ${journeyId} AND profiles <> 0
          ORDER BY status, stage_id, step_id`,
    ),
  );

/** The same, counted over the states. */
const positionsOfStates = async () =>
  positions(
    await many(
      storage.db,
      sql`SELECT status, stage_id, COALESCE(step_id, '') AS step_id, COUNT(*) AS profiles FROM journey_profile_states
          WHERE account_id = ${accountId} AND journey_id = ${journeyId}
          GROUP BY status, stage_id, COALESCE(step_id, '') ORDER BY status, stage_id, COALESCE(step_id, '')`,
    ),
  );

const KEYS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];

/** The two-stage scenario's journey, stored, with six profiles in its entry segment and three of them VIPs. */
async function scenarioWorld(allowReentry: boolean): Promise<World> {
  const w = new World(scenarioJourney({ allowReentry }));
  journeyId = await newJourney(w);
  w.addProfiles(KEYS, (key) => ({ customer_id: `C-${key}` }));
  w.join(SEG.entry, ...KEYS);
  w.join(SEG.vip, 'p1', 'p2', 'p3');
  return w;
}

describe(`journey statistics counted by the database (${testBackend()})`, () => {
  for (const allowReentry of [false, true]) {
    it(`match the engine's on the two-stage scenario, day by day (re-entry ${allowReentry ? 'on' : 'off'})`, async () => {
      const w = await scenarioWorld(allowReentry);
      const script: Array<() => void> = [
        () => undefined,
        () => undefined,
        () => undefined,
        () => undefined,
        () => w.join(SEG.engaged, 'p4'),
        () => w.join(SEG.buyer, 'p5', 'p1'),
        () => w.join(SEG.unsubscribed, 'p4'),
        () => w.leave(SEG.buyer, 'p5'),
      ];
      // Then three weeks on: the 20-day exit of stage 1 fires.
      for (let d = 8; d <= 24; d += 4) script.push(() => undefined);
      for (const [i, step] of script.entries()) {
        const d = i < 8 ? i : 8 + (i - 8) * 4;
        step();
        await runAndSave(w, day(d));
        for (const window of [
          { from: day(0), to: day(d) },
          { from: day(d), to: day(d) },
          { from: day(d) + 1, to: day(d + 1) },
          { from: day(-30), to: day(30) },
        ]) {
          const { counted, reference } = await both(w, window);
          expect(counted).toEqual(reference);
        }
        // The counts answer any window, unless a re-entry lies in it.
        for (const window of [
          { from: day(0), to: day(d + 1) - 1 },
          { from: day(d), to: day(d) },
          { from: day(d) - 1, to: day(d) + 1 },
          { from: day(0) + 1, to: day(d) - 1 },
        ]) {
          const answered = await countsAgree(window);
          if (!allowReentry) expect(answered, JSON.stringify(window)).toBe(true);
        }
      }
      // The scenario reached every kind of figure, so the comparison above covered each of them.
      const all = (await both(w, { from: day(0), to: day(30) })).counted;
      expect(all.entered).toBe(6);
      expect(all.goalReached).toBeGreaterThan(0);
      expect(all.stages[0]?.milestoneReached).toBeGreaterThan(0);
      expect(all.branches.every((b) => b.profiles > 0)).toBe(true);
      expect(all.left.exit_after).toBeGreaterThan(0);
      expect(all.abTests[0]?.variants.reduce((n, v) => n + v.profiles, 0)).toBe(3);
    });
  }

  it("place goals on a window's last day before or after its end by their instant", async () => {
    const w = await scenarioWorld(false);
    // Everyone enters on day 0; the VIPs are assigned an arm on day 3; p1 buys at 01:00 on day 5, p2 at 03:00.
    await runAndSave(w, day(0));
    await runAndSave(w, day(3));
    w.join(SEG.buyer, 'p1');
    await runAndSave(w, day(5) + 3_600_000);
    w.join(SEG.buyer, 'p2');
    await runAndSave(w, day(5) + 3 * 3_600_000);
    const goals = (window: StatisticsWindow) =>
      both(w, window).then(({ counted, reference }) => {
        expect(counted, JSON.stringify(window)).toEqual(reference);
        return counted.abTests[0]?.variants.reduce((n, v) => n + v.goalReached, 0);
      });
    // Up to 02:00 on day 5: the day counts hold days 0 to 4, the instants p1's goal but not p2's.
    expect(await goals({ from: day(0), to: day(5) + 2 * 3_600_000 })).toBe(1);
    expect(await goals({ from: day(0), to: day(5) + 3 * 3_600_000 })).toBe(2);
    expect(await goals({ from: day(3), to: day(5) })).toBe(0);
    expect(await goals({ from: day(3) + 1, to: day(6) })).toBe(0);
    for (const window of [
      { from: day(0), to: day(5) + 2 * 3_600_000 },
      { from: day(2) + 1, to: day(5) + 2 * 3_600_000 },
    ]) {
      expect(await countsAgree(window)).toBe(true);
    }
  });

  it('match the engine’s over random schedules of runs, pauses and segment changes', async () => {
    const segments = Object.values(SEG);
    const seen = { exitAfter: 0, keptAssignments: 0, goals: 0, countAnswers: 0 };
    for (let seed = 1; seed <= 12; seed++) {
      const { next, pick } = seededRandom(seed);
      const w = new World(scenarioJourney({ allowReentry: seed % 3 !== 0, split: [30, 70] }));
      journeyId = await newJourney(w);
      const keys = Array.from({ length: 24 }, (_, i) => `k${i}`);
      w.addProfiles(keys, (key) => ({ customer_id: `C-${seed}-${key}` }));
      // Most start in the entry segment and half are VIPs, so profiles reach the A/B test, leave and come back.
      w.join(SEG.entry, ...keys.slice(0, 20));
      w.join(SEG.vip, ...keys.filter((_, i) => i % 2 === 0));
      let at = day(0);
      const runs: number[] = [];
      const goalRuns: number[] = [];
      for (let action = 0; action < 60; action++) {
        const roll = next();
        if (roll < 0.35) w.join(pick(segments), pick(keys), pick(keys));
        else if (roll < 0.55) w.leave(pick(segments), pick(keys), pick(keys));
        else if (roll < 0.6) {
          if (w.journey.paused) w.resume(at);
          else w.pause(at);
        } else {
          // Runs a few hours apart as well as days apart: parts of days hold runs on both sides of a window's end.
          at += Math.floor(next() * (next() < 0.4 ? 6 * 3_600_000 : 4 * 86_400_000));
          const events = (await runAndSave(w, at)).events;
          seen.exitAfter += events.filter((e) => e.type === 'journey_left' && e.reason === 'exit_after').length;
          seen.keptAssignments += events.filter((e) => e.type === 'variant_assigned' && e.kept).length;
          seen.goals += events.filter((e) => e.type === 'goal_reached').length;
          if (events.some((e) => e.type === 'goal_reached')) goalRuns.push(at);
          runs.push(at);
        }
      }
      const windows: StatisticsWindow[] = [{ from: day(-1), to: at + 1 }];
      for (let i = 0; i < 4; i++) {
        const a = runs.length > 0 ? pick(runs) : at;
        const b = runs.length > 0 ? pick(runs) : at;
        windows.push({ from: Math.min(a, b) + (next() < 0.5 ? 1 : 0), to: Math.max(a, b) });
      }
      // Windows of whole days, and whole days up to now (the default window's shape).
      const lastDay = Math.floor((at - day(0)) / 86_400_000);
      for (let i = 0; i < 4; i++) {
        const a = Math.floor(next() * (lastDay + 2)) - 1;
        const b = Math.floor(next() * (lastDay + 2)) - 1;
        windows.push({ from: day(Math.min(a, b)), to: day(Math.max(a, b) + 1) - 1 });
        windows.push({ from: day(Math.min(a, b)), to: at });
        // Starting inside a day: that day's part per instant, the days after from the day counts.
        windows.push({ from: day(Math.min(a, b)) + Math.floor(next() * 86_400_000), to: at });
        // Ending inside a day, and both: the parts of days at the ends per instant.
        windows.push({ from: day(Math.min(a, b)), to: day(Math.max(a, b)) + Math.floor(next() * 86_400_000) });
        const c = Math.floor(next() * 86_400_000);
        windows.push({ from: day(Math.min(a, b)) + c, to: day(Math.max(a, b)) + Math.floor(next() * c) });
        // Starting just before a run, and ending just before or at one: a run's events on either side of an end.
        if (runs.length > 0) {
          windows.push({ from: pick(runs) - 1, to: at });
          const [r1, r2] = [pick(runs), pick(runs)].sort((x, y) => x - y) as [number, number];
          windows.push({ from: r1, to: r2 - 1 }, { from: r1 + 1, to: r2 }, { from: r1 - 1, to: r2 + 1 });
        }
      }
      // Ending at a run where goals were reached, and just before it: goals on the window's last day.
      for (const g of goalRuns) windows.push({ from: day(0), to: g }, { from: day(0) + 1, to: g - 1 });
      for (const window of windows.filter((x) => x.from <= x.to)) {
        const { counted, reference } = await both(w, window);
        expect(counted, `seed ${seed}, window ${JSON.stringify(window)}`).toEqual(reference);
        const answered = await countsAgree(window);
        if (answered) seen.countAnswers++;
        // Without re-entry the counts answer every window from 1970 on, whatever its ends.
        if (!w.journey.allowReentry && window.from >= 0) expect(answered, `seed ${seed}`).toBe(true);
      }
      // Counted again from the whole log, every figure's previous time is known, re-entries' too: the counts
      // then answer every window from 1970 on.
      await recountFigures(storage.db, accountId, journeyId);
      for (const window of windows.filter((x) => x.from <= x.to)) {
        const answered = await countsAgree(window);
        if (window.from >= 0) expect(answered, `seed ${seed}, recounted, ${JSON.stringify(window)}`).toBe(true);
        const { counted, reference } = await both(w, window);
        expect(counted, `seed ${seed}, recounted, window ${JSON.stringify(window)}`).toEqual(reference);
      }
      // The position counts the runs kept are a count over the states, for those who left too.
      expect(await positionsKept(), `seed ${seed}`).toEqual(await positionsOfStates());
    }
    // The schedules reached the rare paths: the 20-day exit, re-entries keeping their A/B arm, goals.
    expect(seen.exitAfter).toBeGreaterThan(0);
    expect(seen.keptAssignments).toBeGreaterThan(0);
    expect(seen.goals).toBeGreaterThan(0);
    expect(seen.countAnswers).toBeGreaterThan(60);
    expect(abAnswers).toBeGreaterThan(5);
    expect(partialAnswers).toBeGreaterThan(10);
  });
});
