import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../journey/src/testing/prng';
import { compileJourney } from './compile';
import { membershipMovers, wakeAt } from './movers';
import { SEG, scenarioJourney } from './testing/scenario';
import { day, World } from './testing/world';
import { DAY_MS, type ProfileState } from './types';

/**
 * A run over the profiles that may move (movers.ts) against a run over the whole parent segment: the same
 * states, the same log and the same activation queue after every run, over random schedules of runs, pauses,
 * segment changes, profiles joining and leaving the parent segment, and definition changes.
 */

function twins(seed: number) {
  const journey = scenarioJourney({ allowReentry: seed % 3 !== 0, split: [30, 70] });
  const full = new World(journey);
  const movers = new World(journey);
  return { full, movers, both: (f: (w: World) => void) => [full, movers].forEach(f) };
}

describe('runs over the profiles that may move', () => {
  it('give what runs over everyone give, over random schedules', () => {
    const segments = Object.values(SEG);
    const seen = { narrowed: 0, exitAfter: 0, reentries: 0, goals: 0, heldFreed: 0, newcomers: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      const { next, pick, int } = seededRandom(seed);
      const { full, movers, both } = twins(seed);
      const keys = Array.from({ length: 30 }, (_, i) => `k${i}`);
      const columns = (key: string) => ({ customer_id: `C-${seed}-${key}` });
      both((w) => w.addProfiles(keys.slice(0, 24), columns));
      both((w) => w.join(SEG.entry, ...keys.slice(0, 20)));
      both((w) => w.join(SEG.vip, ...keys.filter((_, i) => i % 2 === 0)));
      let at = day(0);
      for (let action = 0; action < 80; action++) {
        const roll = next();
        const a = pick(keys);
        const b = pick(keys);
        const segment = pick(segments);
        if (roll < 0.3) both((w) => w.join(segment, a, b));
        else if (roll < 0.45) both((w) => w.leave(segment, a, b));
        else if (roll < 0.5) {
          if (full.journey.paused) both((w) => w.resume(at));
          else both((w) => w.pause(at));
        } else if (roll < 0.55) {
          if (full.profiles.some((p) => p.key === a)) both((w) => w.removeProfiles(a));
          else {
            both((w) => w.addProfiles([a], columns));
            seen.newcomers++;
          }
        } else if (roll < 0.57) {
          // A new definition: the next run looks at everyone again.
          const allowReentry = !full.journey.allowReentry;
          both((w) => {
            w.journey = { ...w.journey, allowReentry };
          });
        } else {
          // Sometimes again at the same instant or a few hours on, mostly days on.
          at += next() < 0.1 ? 0 : next() < 0.3 ? int(12) * 3_600_000 : int(5) * DAY_MS;
          const expected = full.run(at);
          const got = movers.runMovers(at);
          expect(got, `seed ${seed}, action ${action}`).toEqual(expected);
          expect(movers.states).toEqual(full.states);
          if (!expected.skipped && movers.looked < movers.profiles.length) seen.narrowed++;
          seen.exitAfter += expected.events.filter(
            (e) => e.reason === 'exit_after' && e.type === 'journey_left',
          ).length;
          seen.reentries += expected.events.filter((e) => e.type === 'variant_assigned' && e.kept).length;
          seen.goals += expected.events.filter((e) => e.type === 'goal_reached').length;
          seen.heldFreed += expected.events.filter((e) => e.type === 'branch_taken' && e.segmentId).length;
        }
      }
      expect(movers.events).toEqual(full.events);
      expect(movers.queued).toEqual(full.queued);
    }
    // The schedules reached the cases the narrowing has to get right.
    expect(seen.narrowed).toBeGreaterThan(100);
    expect(seen.exitAfter).toBeGreaterThan(0);
    expect(seen.reentries).toBeGreaterThan(0);
    expect(seen.goals).toBeGreaterThan(0);
    expect(seen.heldFreed).toBeGreaterThan(0);
    expect(seen.newcomers).toBeGreaterThan(0);
  });

  it('looks at nobody when no membership changed and no wait ended', () => {
    const w = new World(scenarioJourney());
    const keys = Array.from({ length: 100 }, (_, i) => `p${i}`);
    w.addProfiles(keys, (key) => ({ customer_id: key }));
    w.join(SEG.entry, ...keys);
    expect(w.runMovers(day(0)).events.length).toBe(300);
    expect(w.looked).toBe(100);
    expect(w.runMovers(day(1)).events).toEqual([]);
    expect(w.looked).toBe(0);
    w.join(SEG.buyer, 'p7');
    expect(w.runMovers(day(2)).events.map((e) => e.type)).toContain('goal_reached');
    expect(w.looked).toBe(1);
    // Day 3: every wait ends, everyone is looked at.
    w.runMovers(day(3));
    expect(w.looked).toBe(99);
  });

  it('takes a profile back at the run after it left, not at the same instant', () => {
    const journey = compileJourney('j', scenarioJourney({ allowReentry: true }));
    const left: ProfileState = {
      profileKey: 'p',
      status: 'left',
      stageId: journey.stages[0]!.id,
      stepId: null,
      journeyEnteredAt: day(0),
      stageEnteredAt: day(0),
      stepEnteredAt: day(0),
      entries: 1,
      leftAt: day(1),
      leftReason: 'goal',
      variants: {},
      branches: {},
      held: false,
      lastRunAt: day(1),
    };
    expect(wakeAt(journey, [], left, day(1))).toBe(day(1) + 1);
    expect(wakeAt(journey, [], left, day(2))).toBeNull();
    expect(wakeAt(compileJourney('j', scenarioJourney()), [], left, day(1))).toBeNull();
  });

  it('counts only parent profiles whose memberships changed', () => {
    const before = { parent: new Set(['a', 'b', 'c']), segments: new Map([['s', new Set(['a'])]]) };
    const now = { parent: new Set(['a', 'b', 'd']), segments: new Map([['s', new Set(['b', 'c'])]]) };
    // a left s, b joined it, c joined it but left the parent, d is new.
    expect([...membershipMovers(before, now)].sort()).toEqual(['a', 'b', 'd']);
  });
});
