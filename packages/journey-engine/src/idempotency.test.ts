import { normalizeJourney } from '@svc/journey';
import { describe, expect, it } from 'vitest';
import { SEG, scenarioJourney } from './testing/scenario';
import { day, World } from './testing/world';

function busyWorld() {
  const w = new World(scenarioJourney({ allowReentry: true }));
  const keys = Array.from({ length: 300 }, (_, i) => `p${i}`);
  w.addProfiles(keys, (key) => ({ customer_id: key }));
  w.join(SEG.entry, ...keys);
  w.join(SEG.vip, ...keys.filter((_, i) => i % 2 === 0));
  w.join(SEG.engaged, ...keys.filter((_, i) => i % 7 === 0));
  return { w, keys };
}

describe('idempotency and determinism', () => {
  it('changes nothing when run twice at the same instant', () => {
    const { w, keys } = busyWorld();
    for (const d of [0, 3, 4]) {
      if (d === 4) w.join(SEG.buyer, ...keys.filter((_, i) => i % 5 === 0));
      const first = w.run(day(d));
      expect(first.events.length).toBeGreaterThan(0);
      const again = w.run(day(d));
      expect(again.events).toEqual([]);
      expect(again.changed.size).toBe(0);
      expect(again.queued).toEqual([]);
    }
  });

  it('changes nothing when run at an earlier instant than the last run that moved a profile', () => {
    const { w } = busyWorld();
    w.run(day(3));
    expect(w.run(day(2)).events).toEqual([]);
  });

  it('gives the same log for the same history, run after run', () => {
    const a = busyWorld().w;
    const b = busyWorld().w;
    for (const d of [0, 1, 3, 5]) {
      a.run(day(d));
      b.run(day(d));
    }
    expect(b.events).toEqual(a.events);
    expect([...b.states.entries()]).toEqual([...a.states.entries()]);
  });

  it('does not mutate the states it is given', () => {
    const { w } = busyWorld();
    w.run(day(0));
    const frozen = JSON.parse(JSON.stringify([...w.states.entries()]));
    const before = new Map(w.states);
    w.run(day(3));
    expect([...before.entries()]).toEqual(frozen);
  });
});

describe('a decision point that no path matches', () => {
  const journey = normalizeJourney({
    name: 'No catch-all',
    state: 'launched',
    journeyStages: [
      {
        id: 's',
        name: 'S',
        entryCriteria: { name: 'All', segmentId: SEG.entry },
        rootStep: 'd',
        steps: {
          d: {
            type: 'DecisionPoint',
            branches: [
              { id: 'b1', segmentId: 'seg-a', next: 'e' },
              { id: 'b2', segmentId: 'seg-b', next: 'e' },
            ],
          },
          e: { type: 'End' },
        },
      },
    ],
  });

  it('holds the profile there, records the hold once, and lets it through when a path matches later', () => {
    const w = new World(journey);
    w.addProfiles(['x']);
    w.join(SEG.entry, 'x');
    w.run(day(0));
    expect(w.where('x')).toBe('s/d');
    expect(w.states.get('x')?.held).toBe(true);
    expect(w.events.filter((e) => e.type === 'step_held').map((e) => e.reason)).toEqual(['no_matching_path']);
    expect(w.run(day(1)).events).toEqual([]);
    w.join('seg-b', 'x');
    w.run(day(2));
    expect(w.where('x')).toBe('s/e');
    expect(w.states.get('x')?.branches).toEqual({ d: 'b2' });
  });

  it('takes the first matching path from the top when several match', () => {
    const w = new World(journey);
    w.addProfiles(['y']);
    w.join(SEG.entry, 'y');
    w.join('seg-a', 'y');
    w.join('seg-b', 'y');
    w.run(day(0));
    expect(w.states.get('y')?.branches).toEqual({ d: 'b1' });
  });
});
