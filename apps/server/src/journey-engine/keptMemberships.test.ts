import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../packages/journey/src/testing/prng';
import { many, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import {
  DAY_MS,
  json,
  type LaunchedIds,
  launchScenario,
  type Person,
  postPerson,
  runJourneyAt,
  seedParentSegment,
} from './fixture';
import { loggedEventsOf } from './testing/loggedEvents';

/**
 * A run keeps the segment memberships of the journey's last run, instead of evaluating them over the whole
 * parent segment again, while nothing they are evaluated from changed (decision 0046): the parent segment's
 * build and the rules of the segments the journey reads. New data counts once the parent segment is rebuilt
 * (as for a full evaluation, which reads the built profiles); a rule with a time filter is evaluated at every
 * run. audiences/inputs.test.ts holds "same inputs, same members"; the engine package's movers property test
 * holds runs over the movers equal to runs over everyone.
 */

interface Summary {
  looked: number;
  changed: number;
  events: number;
  profiles: number;
  evaluated: boolean;
  membersRead: number;
}

/** A rule on `vip` (a number: no time filter). */
const onVip = (type: 'Equal' | 'GreaterEqual', rightValue: number) => ({
  type: 'And',
  conditions: [{ type: 'Value', leftValue: { name: 'vip' }, operator: { type, rightValue } }],
});
/** `vip` codes: 0 nobody, 1 VIP, 2 engaged, 3 buyer, 4 unsubscribed. */
const code = (value: number) => onVip('Equal', value);

describe('journey runs keep the memberships while their inputs are unchanged', () => {
  let h: Harness;
  let T: number;
  let parentId: string;
  let ids: LaunchedIds;
  let seg: Record<'entry' | 'vip' | 'engaged' | 'buyer' | 'unsubscribed', string>;
  const at = (day: number) => T + day * DAY_MS;

  const person = (key: string, vip: number): Person => ({
    customer_id: key,
    vip,
    engaged_at: 0,
    bought_at: 0,
    unsub_at: 0,
  });

  /** A new server with the journey launched over p1–p4 (two VIPs). */
  const setUp = async () => {
    h = await createHarness();
    T = h.clock.now().getTime();
    parentId = await seedParentSegment(h, [person('p1', 1), person('p2', 1), person('p3', 0), person('p4', 0)]);
    const make = async (name: string, rule: unknown) =>
      (await json<{ id: string }>(h.call('POST', `/audiences/${parentId}/segments`, { json: { name, rule } }))).id;
    seg = {
      entry: await make('Everyone', onVip('GreaterEqual', 0)),
      vip: await make('VIP', code(1)),
      engaged: await make('Engaged', code(2)),
      buyer: await make('Buyers', code(3)),
      unsubscribed: await make('Unsubscribed', code(4)),
    };
    ids = await launchScenario(h, parentId, seg);
  };
  // Seeding builds a parent segment: on DuckDB under load that can take longer than the default hook limit.
  beforeEach(setUp, 60_000);
  afterEach(async () => {
    await h.close();
  });

  const run = (day: number) => runJourneyAt<Summary>(h, ids.journeyId, at(day));
  const post = (p: Person) => postPerson(h, p);
  const rebuild = async () => {
    const built = await json<{ buildJobId: string }>(h.call('POST', `/audiences/${parentId}/run`));
    expect(await h.app.services.jobs.whenSettled(Number(built.buildJobId))).toBe('success');
  };
  const editRule = async (id: string, name: string, rule: unknown) => {
    await json(h.call('PUT', `/audiences/${parentId}/segments/${id}`, { json: { name, rule } }));
  };
  const positions = async () =>
    (
      await many<{ profile_key: string; status: string; step_id: string | null; left_reason: string | null }>(
        h.deps.storage.db,
        sql`SELECT profile_key, status, step_id, left_reason FROM journey_profile_states
            WHERE journey_id = ${Number(ids.journeyId)} ORDER BY profile_key`,
      )
    ).map((r) => `${r.profile_key}:${r.status}:${r.step_id}:${r.left_reason ?? ''}`);

  it('evaluates only after a rebuild or a rule change, and moves exactly the profiles those changed', async () => {
    // The parent segment and the five segments the journey reads are read at the first run.
    expect(await run(0)).toMatchObject({ evaluated: true, membersRead: 6, profiles: 4, looked: 4, changed: 4 });
    expect(await run(1)).toMatchObject({ evaluated: false, membersRead: 0, profiles: 4, looked: 0, changed: 0 });

    // New data is in the customer table, but the profiles the rules read are the last build's.
    h.clock.set(at(1) + 1000);
    await post(person('p3', 2));
    expect(await run(1.2)).toMatchObject({ evaluated: false, looked: 0 });
    await rebuild();
    // p3 is engaged: the milestone takes it to stage 2. Only the engaged segment's members changed and are read.
    expect(await run(1.4)).toMatchObject({ evaluated: true, membersRead: 1, looked: 1, changed: 1 });
    expect(await run(1.6)).toMatchObject({ evaluated: false, looked: 0 });

    // A rebuild that changes nobody's membership is evaluated once, reads no members and moves nobody.
    await rebuild();
    expect(await run(1.8)).toMatchObject({ evaluated: true, membersRead: 0, looked: 0, changed: 0 });

    // The goal's rule now takes the VIPs: they reach the goal and leave.
    await editRule(seg.buyer, 'Buyers', code(1));
    expect(await run(2)).toMatchObject({ evaluated: true, membersRead: 1, looked: 2, changed: 2 });
    expect(await run(2.5)).toMatchObject({ evaluated: false, looked: 0 });

    // A rule with a time filter moves with the instant: evaluated at every run, its members read when they change.
    await editRule(seg.unsubscribed, 'Unsubscribed', {
      type: 'And',
      conditions: [
        { type: 'Value', leftValue: { name: 'unsub_at' }, operator: { type: 'TimeWithinPast', value: 1, unit: 'day' } },
      ],
    });
    expect(await run(2.6)).toMatchObject({ evaluated: true, membersRead: 0, looked: 0 });
    expect(await run(2.7)).toMatchObject({ evaluated: true, membersRead: 0, looked: 0 });
    // p1 unsubscribes now: within the past day at the next run, out of it a day later.
    h.clock.set(at(2.7) + 1000);
    await post({ ...person('p1', 1), unsub_at: Math.floor((at(2.7) + 1000) / 1000) });
    await rebuild();
    expect(await run(2.75)).toMatchObject({ evaluated: true, membersRead: 1, changed: 0 });
    // Day 3: p4's wait ends (the only one left in stage 1); p1's unsubscription is more than a day old.
    expect(await run(3)).toMatchObject({ evaluated: true, membersRead: 0, looked: 1, changed: 1 });
    expect(await run(4)).toMatchObject({ evaluated: true, membersRead: 1, changed: 0 });
    expect(await positions()).toEqual([
      'p1:left:wait3:goal',
      'p2:left:wait3:goal',
      'p3:active:end2:',
      'p4:active:end1:',
    ]);
  });

  /**
   * One random (seeded) schedule of new data, rebuilds, rule edits and runs; answers what each run did and
   * the states and log at the end. With `restartBeforeRuns` every run starts in a new process: it keeps
   * nothing, so it evaluates every segment and reads everyone (the reference).
   */
  const schedule = async (restartBeforeRuns: boolean) => {
    const { pick } = seededRandom(4600);
    const runs: string[] = [];
    let keptRuns = 0;
    let day = 0;
    for (let step = 0; step < 16; step++) {
      const action = step === 0 ? 'run' : pick(['data', 'data', 'rebuild', 'edit', 'run', 'run'] as const);
      if (action === 'data') {
        h.clock.set(h.clock.now().getTime() + 1000);
        await post(person(pick(['p1', 'p2', 'p3', 'p4', 'p5']), pick([0, 1, 2, 3, 4])));
      } else if (action === 'rebuild') await rebuild();
      else if (action === 'edit') {
        const role = pick(['vip', 'engaged', 'buyer', 'unsubscribed'] as const);
        await editRule(seg[role], role, code(pick([0, 1, 2, 3, 4])));
      } else {
        day += pick([0.25, 1, 3]);
        if (restartBeforeRuns) h = await h.restart();
        const summary = await run(day);
        runs.push(`day ${day}: changed ${summary.changed}, events ${summary.events}`);
        if (!summary.evaluated) keptRuns++;
      }
    }
    const events = (await loggedEventsOf(h.deps.storage.db, Number(ids.journeyId))).map((e) => ({
      type: e.type,
      profileKey: e.profileKey,
      stageId: e.stageId,
      stepId: e.stepId,
      reason: e.reason,
      at: e.at,
    }));
    const states = await many<Record<string, unknown>>(
      h.deps.storage.db,
      sql`SELECT profile_key, status, stage_id, step_id, journey_entered_at, stage_entered_at, step_entered_at,
            entries, left_at, left_reason, variants, branches, held
          FROM journey_profile_states WHERE journey_id = ${Number(ids.journeyId)} ORDER BY profile_key`,
    );
    return { runs, keptRuns, states, events: events.map((e) => JSON.stringify(e)).sort() };
  };

  it('gives, over a random schedule, what runs that evaluate every segment give', async () => {
    const kept = await schedule(false);
    await h.close();
    await setUp();
    const reference = await schedule(true);
    expect(kept.runs).toEqual(reference.runs);
    expect(kept.states).toEqual(reference.states);
    expect(kept.events).toEqual(reference.events);
    // The schedule moved profiles more than once, and runs kept memberships (none after a restart).
    expect(kept.runs.filter((r) => !r.includes('changed 0')).length).toBeGreaterThan(2);
    expect(kept.keptRuns).toBeGreaterThan(1);
    expect(reference.keptRuns).toBe(0);
  }, 300_000);

  it('evaluates again after a restart, when the kept memberships are gone', async () => {
    expect(await run(0)).toMatchObject({ evaluated: true, looked: 4 });
    h = await h.restart();
    expect(await run(1)).toMatchObject({ evaluated: true, looked: 4, changed: 0 });
    expect(await run(2)).toMatchObject({ evaluated: false, looked: 0 });
  });
});
