import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEG, scenarioJourney } from '../../../../packages/journey-engine/src/testing/scenario';
import { day, World } from '../../../../packages/journey-engine/src/testing/world';
import { many, type OpenedStorage, openStorage, type StorageTarget, sql } from '../platform/storage';
import { freshTestDatabase, testBackend } from '../testing/storage';
import { recountFigures } from './figureCounts';
import { moveAndSave } from './move';
import { populationOfProfiles } from './movers';
import type { Population } from './population';
import { loggedEventsOf } from './testing/loggedEvents';
import { expectStatesOfWorld, insertLaunchedJourney, scenarioPopulation } from './testing/scenarioRuns';

/**
 * A journey run killed with SIGKILL while it saves (issue 30): a child process runs the scenario's day 0 (every
 * profile enters), then day 3 (waits end, decisions, A/B tests, activations queued), and is killed once two
 * parts of day 3 are committed. Each profile is then either wholly moved or untouched, the run row says it was
 * interrupted, and the next run (a new process: it reads everyone) moves the others: the states, the count of
 * every kind of event and the activation queue are exactly those of an uninterrupted run, nothing twice.
 */

const N = 6000;

/** The population of the test and of the child: everyone in the entry segment, a third VIPs. */
const populationSource = `
const keys = Array.from({ length: N }, (_, i) => 'k' + String(i).padStart(5, '0'));
const members = new Map([
  [SEG.entry, new Set(keys)],
  [SEG.vip, new Set(keys.filter((_, i) => i % 3 === 0))],
]);
const population = populationOfProfiles({
  profiles: keys.map((key) => ({ key, columns: { customer_id: 'C-' + key } })),
  members,
  isMember: (segmentId, key) => members.get(segmentId)?.has(key) ?? false,
}, null);`;

function testPopulation(): Population {
  return scenarioPopulation(Array.from({ length: N }, (_, i) => `k${String(i).padStart(5, '0')}`));
}

/** The running process: tsx, with the storage target, account and journey as arguments. */
const runner = `
import { openStorage } from ${JSON.stringify(join(import.meta.dirname, '../platform/storage/index.ts'))};
import { moveAndSave } from ${JSON.stringify(join(import.meta.dirname, 'move.ts'))};
import { populationOfProfiles } from ${JSON.stringify(join(import.meta.dirname, 'movers.ts'))};
import { SEG, scenarioJourney } from ${JSON.stringify(join(import.meta.dirname, '../../../../packages/journey-engine/src/testing/scenario.ts'))};
import { day } from ${JSON.stringify(join(import.meta.dirname, '../../../../packages/journey-engine/src/testing/world.ts'))};
const N = ${N};
${populationSource}
const [target, accountId, journeyId] = [JSON.parse(process.argv[1]), Number(process.argv[2]), Number(process.argv[3])];
const storage = await openStorage(target);
const input = { accountId, journeyId, journey: scenarioJourney(), pauses: [], population, trigger: 'schedule' };
await moveAndSave(storage, { ...input, at: day(0) });
let parts = 0;
// Between parts the runner leaves the lock free for a moment (runner.ts). After the second part the run stops
// there for good (a timer only keeps the process alive) until the test kills it.
const between = () => {
  process.stdout.write('part ' + ++parts + '\\n');
  if (parts < 2) return Promise.resolve();
  setInterval(() => undefined, 60_000);
  return new Promise(() => undefined);
};
await moveAndSave(storage, { ...input, at: day(3), between });
process.stdout.write('done\\n');
`;

describe(`a journey run under kill -9 (${testBackend()})`, () => {
  let dir: string;
  let target: StorageTarget;
  let drop: () => Promise<void> = async () => undefined;
  let storage: OpenedStorage | null = null;
  let child: ChildProcess | null = null;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-run-crash-'));
    if (testBackend() === 'postgres') {
      const db = await freshTestDatabase();
      target = { backend: 'postgres', url: db.url };
      drop = db.drop;
    } else {
      target = { backend: 'sqlite', file: join(dir, 'control.db') };
    }
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    await storage?.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves every profile whole, and the next run moves the rest with nothing counted or queued twice', async () => {
    storage = await openStorage(target);
    const db = storage.db;
    const journey = scenarioJourney();
    const { accountId, journeyId } = await insertLaunchedJourney(db, journey);
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        runner,
        JSON.stringify(target),
        String(accountId),
        String(journeyId),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const proc = child;
    const acknowledged = await new Promise<number>((resolve, reject) => {
      let parts = 0;
      proc.stdout?.setEncoding('utf8').on('data', (text: string) => {
        for (const m of text.matchAll(/part (\d+)/g)) parts = Number(m[1]);
        if (text.includes('done')) reject(new Error('The run ended before it could be killed.'));
        if (parts >= 2 && !proc.killed) {
          proc.kill('SIGKILL');
          resolve(parts);
        }
      });
      proc.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`The run stopped by itself (code ${code}).`));
      });
    });
    if (proc.exitCode === null && proc.signalCode === null) await new Promise((resolve) => proc.once('exit', resolve));

    // The two parts of 1,000 profiles committed before the kill moved on day 3; the others are untouched.
    const moved = await many<{ profile_key: string }>(
      db,
      sql`SELECT profile_key FROM journey_profile_states WHERE journey_id = ${journeyId} AND last_run_at = ${day(3)}`,
    );
    expect(acknowledged).toBe(2);
    expect(moved.length).toBe(2000);
    const withEvents = new Set(
      (await loggedEventsOf(db, journeyId)).filter((e) => e.at === day(3)).map((e) => e.profileKey),
    );
    expect(withEvents.size).toBe(moved.length);
    const runs = await many<{ at: number; status: string; error: string | null }>(
      db,
      sql`SELECT at, status, error FROM journey_runs WHERE journey_id = ${journeyId} ORDER BY id`,
    );
    expect(runs.map((r) => [Number(r.at), r.status])).toEqual([
      [day(0), 'success'],
      [day(3), 'error'],
    ]);
    expect(runs[1]?.error).toContain('The server stopped while this run was being saved');

    // The next run, in this process (it kept nothing of the child's runs, so it reads everyone).
    const redo = await moveAndSave(storage, {
      accountId,
      journeyId,
      journey,
      pauses: [],
      population: populationOfProfiles(testPopulation(), null),
      at: day(3) + 3_600_000,
      trigger: 'schedule',
    });
    expect(redo.looked).toBe(N);
    expect(redo.counts.changed).toBe(N - moved.length);

    // The same outcome as runs that were never interrupted.
    const w = new World(journey, String(journeyId));
    const reference = testPopulation();
    w.profiles = reference.profiles;
    w.join(SEG.entry, ...(reference.members.get(SEG.entry) ?? []));
    w.join(SEG.vip, ...(reference.members.get(SEG.vip) ?? []));
    w.run(day(0));
    w.run(day(3));
    await expectStatesOfWorld(db, journeyId, w);
    const byType = new Map<string, number>();
    for (const e of await loggedEventsOf(db, journeyId)) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
    const expected = new Map<string, number>();
    for (const e of w.events) expected.set(e.type, (expected.get(e.type) ?? 0) + 1);
    expect(Object.fromEntries(byType)).toEqual(Object.fromEntries(expected));
    // The day counts the runs kept through the kill are those of the log: nothing counted twice or lost.
    const dayCounts = async () => ({
      figures: await many(
        db,
        sql`SELECT kind, fid, sub, day, prev_day, n FROM journey_figure_days WHERE journey_id = ${journeyId}
            AND n <> 0 ORDER BY kind, fid, sub, day, prev_day`,
      ),
      ab: await many(
        db,
        sql`SELECT step_id, variant_id, day, goal_day, n FROM journey_ab_days WHERE journey_id = ${journeyId}
            AND n <> 0 ORDER BY step_id, variant_id, day, goal_day`,
      ),
    });
    const kept = await dayCounts();
    expect(kept.figures.length).toBeGreaterThan(0);
    await recountFigures(db, accountId, journeyId);
    expect(kept).toEqual(await dayCounts());
    const queue = await many<{ profile_key: string; activation_id: string }>(
      db,
      sql`SELECT profile_key, activation_id FROM journey_activation_queue WHERE journey_id = ${journeyId}
          ORDER BY profile_key`,
    );
    expect(queue.length).toBeGreaterThan(0);
    expect(queue).toEqual(
      w.queued
        .map((q) => ({ profile_key: q.profileKey, activation_id: q.activationId }))
        .sort((a, b) => (a.profile_key < b.profile_key ? -1 : 1)),
    );
    // A child process that compiles its TypeScript first, on a loaded machine: longer than the default.
  }, 180_000);
});
