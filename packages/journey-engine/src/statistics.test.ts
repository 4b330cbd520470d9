import { describe, expect, it } from 'vitest';
import { findVariantByLocation, variantLocation } from './location';
import { compareToControl, normalCdf } from './significance';
import { defaultWindow, journeyStatistics } from './statistics';
import { SEG, scenarioJourney } from './testing/scenario';
import { day, World } from './testing/world';
import { activeMs, dueAfter, normalizePauses } from './time';
import { DAY_MS } from './types';

describe('statistics', () => {
  const KEYS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
  function played() {
    const w = new World(scenarioJourney({ split: [50, 50] }));
    w.addProfiles(KEYS, (key) => ({ customer_id: `C-${key}` }));
    w.join(SEG.entry, ...KEYS);
    w.join(SEG.vip, 'p1', 'p2', 'p3');
    w.run(day(0));
    w.run(day(3));
    w.join(SEG.engaged, 'p4');
    w.run(day(4));
    w.join(SEG.buyer, 'p5', 'p1');
    w.run(day(5));
    return w;
  }

  it('counts entries, stages, steps, branches, goal and exits from the log and the states', () => {
    const w = played();
    const stats = journeyStatistics('j1', w.journey, w.events, w.states.values(), { from: day(0), to: day(6) });
    expect(stats).toMatchObject({ entered: 6, entries: 6, current: 4, goalReached: 2 });
    expect(stats.left.goal).toBe(2);
    const [st1, st2] = stats.stages;
    expect(st1).toMatchObject({ stageId: 'st1', entered: 6, current: 3, milestoneReached: 1 });
    expect(st1?.flow).toEqual({ toNextStage: 1, toGoal: 2, toExit: 0 });
    expect(st2).toMatchObject({ stageId: 'st2', entered: 1, current: 1, milestoneReached: 0 });
    expect(st2?.exits).toEqual([{ criterionIndex: 0, name: 'Unsubscribed', profiles: 0 }]);
    const step = (id: string) => stats.steps.find((s) => s.stepId === id);
    expect(step('wait3')).toMatchObject({ entered: 6, current: 0 });
    expect(step('end1')).toMatchObject({ entered: 6, current: 3 });
    expect(stats.branches.map((b) => [b.branchId, b.profiles])).toEqual([
      ['br-vip', 3],
      ['br-rest', 3],
    ]);
    const [test] = stats.abTests;
    const total = test?.variants.reduce((sum, v) => sum + v.profiles, 0);
    expect(total).toBe(3);
    expect(test?.variants.reduce((sum, v) => sum + v.goalReached, 0)).toBe(1);
    expect(test?.variants[0]).toMatchObject({ control: true, uplift: null, pValue: null });
  });

  it('leaves out events outside the window', () => {
    const w = played();
    const stats = journeyStatistics('j1', w.journey, w.events, w.states.values(), { from: day(4), to: day(6) });
    expect(stats.entered).toBe(0);
    expect(stats.goalReached).toBe(2);
    expect(stats.stages[1]?.entered).toBe(1);
  });

  it('uses the past 30 days including today as the default window', () => {
    const now = Date.UTC(2026, 5, 30, 15, 0);
    expect(defaultWindow(now)).toEqual({ from: Date.UTC(2026, 5, 1), to: now });
  });

  it('computes uplift and a two-sided significance against the control', () => {
    const c = compareToControl(150, 1000, 100, 1000);
    expect(c.uplift).toBeCloseTo(0.5, 10);
    // z = 3.38 for 15 % vs 10 % over 1,000 each.
    expect(c.pValue).toBeCloseTo(0.00072, 4);
    expect(c.confidence).toBeCloseTo(0.99928, 4);
    expect(compareToControl(0, 0, 5, 10)).toEqual({ uplift: null, pValue: null, confidence: null });
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
  });
});

describe('time with pauses', () => {
  const pauses = normalizePauses([
    { from: day(5), to: day(7) },
    { from: day(1), to: day(2) },
    { from: day(6), to: day(8) },
  ]);

  it('merges overlapping pauses and subtracts them from elapsed time', () => {
    expect(pauses).toEqual([
      { from: day(1), to: day(2) },
      { from: day(5), to: day(8) },
    ]);
    expect(activeMs(pauses, day(0), day(10))).toBe(6 * DAY_MS);
    expect(activeMs(pauses, day(6), day(7))).toBe(0);
  });

  it('pushes a due instant back by every pause it overlaps, including ones it runs into', () => {
    expect(dueAfter(pauses, day(0), 3 * DAY_MS)).toBe(day(4));
    expect(dueAfter(pauses, day(0), 5 * DAY_MS)).toBe(day(9));
    expect(dueAfter(normalizePauses([{ from: day(1), to: null }]), day(0), 3 * DAY_MS)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('variant locations (spec rule 7)', () => {
  it('composes ab_test_<test step id>_<variant id> and reads it back', () => {
    const journey = scenarioJourney();
    expect(variantLocation('offerTest', 'v-offer')).toBe('ab_test_offerTest_v-offer');
    expect(findVariantByLocation(journey, 'st1', 'ab_test_offerTest_v-offer')).toEqual({
      stageId: 'st1',
      stepId: 'offerTest',
      variantId: 'v-offer',
      variantIndex: 1,
    });
    expect(findVariantByLocation(journey, 'st1', 'ab_test_offerTest_v-control')?.variantIndex).toBe(0);
    expect(findVariantByLocation(journey, 'st2', 'ab_test_offerTest_v-offer')).toBeNull();
    expect(findVariantByLocation(journey, 'st1', 'branch_x')).toBeNull();
  });
});
