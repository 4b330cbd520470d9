import { describe, expect, it } from 'vitest';
import { abBucket, variantIndexForBucket } from './ab';
import { SEG, scenarioJourney } from './testing/scenario';
import { day, World } from './testing/world';
import { DAY_MS } from './types';

const KEYS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
const customerId = (key: string) => `C-${key}`;

function world(options: Parameters<typeof scenarioJourney>[0] = {}) {
  const w = new World(scenarioJourney(options));
  w.addProfiles(KEYS, (key) => ({ customer_id: customerId(key) }));
  w.join(SEG.entry, ...KEYS);
  w.join(SEG.vip, 'p1', 'p2', 'p3');
  return w;
}

/** The arm the stable hash puts a VIP in: where it sits after the test, with the real split. */
const armOf = (key: string) =>
  variantIndexForBucket([50, 50], abBucket(customerId(key), 'j1', 'offerTest')) === 0 ? 'v-control' : 'v-offer';

describe('the two-stage scenario, day by day', () => {
  it('moves every profile through waits, the decision point, the A/B test, activations, milestone, goal and exits', () => {
    const w = world();
    const vips = ['p1', 'p2', 'p3'];
    // The fixture's customer ids put VIPs in both arms, so both paths are exercised.
    expect(new Set(vips.map(armOf)).size).toBe(2);

    w.run(day(0));
    expect(w.positions(KEYS)).toEqual(Object.fromEntries(KEYS.map((k) => [k, 'st1/wait3'])));

    for (const d of [1, 2]) {
      const r = w.run(day(d));
      expect(r.events).toEqual([]);
      expect(w.positions(KEYS)).toEqual(Object.fromEntries(KEYS.map((k) => [k, 'st1/wait3'])));
    }
    // One millisecond before three days have passed, still waiting.
    expect(w.run(day(3) - 1).events).toEqual([]);

    w.run(day(3));
    expect(w.positions(KEYS)).toEqual(Object.fromEntries(KEYS.map((k) => [k, 'st1/end1'])));
    for (const key of vips) {
      expect(w.states.get(key)?.branches).toEqual({ vipCheck: 'br-vip' });
      expect(w.states.get(key)?.variants).toEqual({ offerTest: armOf(key) });
    }
    for (const key of ['p4', 'p5', 'p6']) expect(w.states.get(key)?.branches).toEqual({ vipCheck: 'br-rest' });
    const offered = vips.filter((k) => armOf(k) === 'v-offer').sort();
    expect(w.queued.map((q) => q.profileKey).sort()).toEqual(offered);
    expect(w.queued.every((q) => q.activationId === 'act-offer' && q.at === day(3))).toBe(true);
    const controlKey = vips.find((k) => armOf(k) === 'v-control')!;
    expect(w.eventsOf(controlKey)).toEqual([
      'journey_entered',
      'stage_entered',
      'step_entered:wait3',
      'step_left:wait3',
      'step_entered:vipCheck',
      'branch_taken:vipCheck',
      'step_entered:offerTest',
      'variant_assigned:offerTest',
      'step_entered:join',
      'step_entered:end1',
    ]);

    // Day 4: p4 reaches the milestone and moves to stage 2, where it is activated.
    w.join(SEG.engaged, 'p4');
    w.run(day(4));
    expect(w.where('p4')).toBe('st2/end2');
    expect(w.queued.filter((q) => q.activationId === 'act-thanks').map((q) => q.profileKey)).toEqual(['p4']);

    // Day 5: p5 buys (goal); day 6: p4 unsubscribes (stage 2 exit criterion).
    w.join(SEG.buyer, 'p5');
    w.run(day(5));
    expect(w.where('p5')).toBe('left:goal');
    w.join(SEG.unsubscribed, 'p4');
    w.run(day(6));
    expect(w.where('p4')).toBe('left:exit_segment');

    // Nothing else moves until the 20-day limit of stage 1 ends for those still in it.
    for (let d = 7; d < 20; d++) expect(w.run(day(d)).events).toEqual([]);
    w.run(day(20));
    expect(w.positions(KEYS)).toEqual({
      p1: 'left:exit_after',
      p2: 'left:exit_after',
      p3: 'left:exit_after',
      p4: 'left:exit_segment',
      p5: 'left:goal',
      p6: 'left:exit_after',
    });
    // Leaving the End at the 20-day limit is recorded: the profile had been there since day 3.
    expect(w.eventsOf(controlKey).slice(-4)).toEqual(['exit_matched', 'step_left:end1', 'stage_left', 'journey_left']);
    const exits = w.events.filter((e) => e.type === 'exit_matched' && e.stageId === 'st1');
    expect(exits.map((e) => e.criterionIndex)).toEqual([0, 0, 0, 0]);
  });

  it('extends a wait by exactly the 2 days the journey was paused, and records nothing while paused', () => {
    const w = world();
    w.run(day(0));
    w.pause(day(1));
    expect(w.run(day(2)).skipped).toBe('paused');
    expect(w.run(day(3)).skipped).toBe('paused');
    w.resume(day(3));
    // Three unpaused days end at day 5, not day 3.
    expect(w.run(day(3)).events).toEqual([]);
    expect(w.run(day(5) - 1).events).toEqual([]);
    expect(w.where('p4')).toBe('st1/wait3');
    w.run(day(5));
    expect(w.where('p4')).toBe('st1/end1');
    const entered = w.events.find((e) => e.profileKey === 'p4' && e.stepId === 'vipCheck');
    expect(entered?.at).toBe(day(5));
  });

  it('does not let profiles enter or move while paused, and lets them enter after resuming', () => {
    const w = world();
    w.pause(day(0));
    w.run(day(0));
    w.run(day(1));
    expect(w.states.size).toBe(0);
    w.resume(day(1) + DAY_MS / 2);
    w.run(day(2));
    expect(w.where('p1')).toBe('st1/wait3');
  });

  it('does not count paused time towards exitAfter either', () => {
    const w = world();
    w.run(day(0));
    w.pause(day(10));
    w.resume(day(15));
    w.run(day(20));
    expect(w.where('p6')).toBe('st1/end1');
    w.run(day(25));
    expect(w.where('p6')).toBe('left:exit_after');
  });

  it('never lets a profile back in when re-entry is off', () => {
    const w = world({ allowReentry: false });
    w.run(day(0));
    w.join(SEG.buyer, 'p1');
    w.run(day(1));
    expect(w.where('p1')).toBe('left:goal');
    w.leave(SEG.buyer, 'p1');
    w.run(day(2));
    w.run(day(30));
    expect(w.where('p1')).toBe('left:goal');
    expect(w.states.get('p1')?.entries).toBe(1);
  });

  it('lets a profile back in when re-entry is on, at a later run, keeping its A/B variant', () => {
    const w = world({ allowReentry: true });
    w.run(day(0));
    w.run(day(3));
    const variant = w.states.get('p1')?.variants.offerTest;
    expect(variant).toBeDefined();
    w.join(SEG.buyer, 'p1');
    w.run(day(4));
    expect(w.where('p1')).toBe('left:goal');
    // Still in the goal segment: entering would only make it leave again, so it stays out.
    w.run(day(5));
    expect(w.where('p1')).toBe('left:goal');
    w.leave(SEG.buyer, 'p1');
    w.run(day(6));
    expect(w.where('p1')).toBe('st1/wait3');
    expect(w.states.get('p1')?.entries).toBe(2);
    w.run(day(9));
    expect(w.states.get('p1')?.variants.offerTest).toBe(variant);
    const assignments = w.events.filter((e) => e.profileKey === 'p1' && e.type === 'variant_assigned');
    expect(assignments.map((e) => [e.variantId, e.kept])).toEqual([
      [variant, false],
      [variant, true],
    ]);
  });

  it('starts a profile that already qualifies for stage 2 there', () => {
    const w = world();
    w.join(SEG.engaged, 'p2');
    w.run(day(0));
    expect(w.where('p2')).toBe('st2/end2');
    expect(w.where('p1')).toBe('st1/wait3');
  });

  it('does not run a draft', () => {
    const draft = new World(scenarioJourney({ state: 'draft' }));
    draft.addProfiles(['a']);
    draft.join(SEG.entry, 'a');
    expect(draft.run(day(0)).skipped).toBe('draft');
    expect(draft.states.size).toBe(0);
  });
});
