import { describe, expect, it } from 'vitest';
import { abBucket, BUCKETS, hash32, variantIndexForBucket } from './ab';
import { abJourney, SEG } from './testing/scenario';
import { day, World } from './testing/world';

const N = 10_000;
const keys = Array.from({ length: N }, (_, i) => `profile-${i}`);

function splitWorld(percentages: number[], journeyId = 'ab') {
  const w = new World(abJourney(percentages, journeyId), journeyId);
  w.addProfiles(keys, (key) => ({ customer_id: `cust-${key}` }));
  w.join(SEG.entry, ...keys);
  return w;
}

function shares(w: World, variantCount: number): number[] {
  const counts = new Array<number>(variantCount).fill(0);
  for (const s of w.states.values()) {
    const id = s.variants.test ?? '';
    const index = Number(id.slice(id.lastIndexOf('v') + 1));
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts.map((c) => (c / N) * 100);
}

describe('A/B assignment', () => {
  it.each([[[50, 50]], [[20, 30, 50]], [[10, 10, 10, 10, 10, 10, 10, 10, 20]], [[1, 99]]])(
    'lands within ±2 %% of the percentages %j over 10,000 profiles, control included',
    (percentages) => {
      const w = splitWorld(percentages);
      w.run(day(0));
      const observed = shares(w, percentages.length);
      percentages.forEach((p, i) => {
        expect(Math.abs((observed[i] ?? 0) - p)).toBeLessThanOrEqual(2);
      });
    },
  );

  it('is stable across runs and restarts: a fresh engine with fresh state assigns the same variants', () => {
    const first = splitWorld([20, 30, 50]);
    first.run(day(0));
    const second = splitWorld([20, 30, 50]);
    second.run(day(7));
    for (const key of keys) {
      expect(second.states.get(key)?.variants).toEqual(first.states.get(key)?.variants);
    }
  });

  it('always puts the same unique id in the same variant, whatever the profile key', () => {
    const a = new World(abJourney([50, 50]));
    a.addProfiles(['k1'], () => ({ customer_id: 'same-person' }));
    a.join(SEG.entry, 'k1');
    a.run(day(0));
    const b = new World(abJourney([50, 50]));
    b.addProfiles(['other-key'], () => ({ customer_id: 'same-person' }));
    b.join(SEG.entry, 'other-key');
    b.run(day(3));
    expect(b.states.get('other-key')?.variants).toEqual(a.states.get('k1')?.variants);
  });

  it('splits differently in another journey, so two tests are not correlated', () => {
    const a = splitWorld([50, 50], 'ja');
    const b = splitWorld([50, 50], 'jb');
    a.run(day(0));
    b.run(day(0));
    let same = 0;
    for (const key of keys) {
      const va = a.states.get(key)?.variants.test?.endsWith('v0');
      const vb = b.states.get(key)?.variants.test?.endsWith('v0');
      if (va === vb) same++;
    }
    // Independent halves agree about half the time.
    expect(Math.abs(same / N - 0.5)).toBeLessThan(0.03);
  });

  it('falls back to the profile key when the unique id column is empty', () => {
    expect(abBucket('k', 'j', 's')).toBe(abBucket('k', 'j', 's'));
    const w = new World(abJourney([0, 100]));
    w.addProfiles(['lonely']);
    w.join(SEG.entry, 'lonely');
    w.run(day(0));
    expect(w.states.get('lonely')?.variants.test).toBe('ab-v1');
  });

  it('maps buckets to cumulative ranges, control first, exactly at the boundaries', () => {
    expect(variantIndexForBucket([20, 30, 50], 0)).toBe(0);
    expect(variantIndexForBucket([20, 30, 50], 1999)).toBe(0);
    expect(variantIndexForBucket([20, 30, 50], 2000)).toBe(1);
    expect(variantIndexForBucket([20, 30, 50], 4999)).toBe(1);
    expect(variantIndexForBucket([20, 30, 50], 5000)).toBe(2);
    expect(variantIndexForBucket([20, 30, 50], BUCKETS - 1)).toBe(2);
    expect(variantIndexForBucket([0, 100], 0)).toBe(1);
    expect(variantIndexForBucket([0, 0], 5)).toBe(0);
  });

  it('spreads buckets evenly (chi-squared over 10 deciles of 100,000 ids)', () => {
    const deciles = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const b = abBucket(`id-${i}`, 'journey', 'step');
      deciles[Math.floor(b / 1000)]! += 1;
    }
    const expected = 10_000;
    const chi = deciles.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
    // 9 degrees of freedom: 27.9 is the 0.001 critical value.
    expect(chi).toBeLessThan(27.9);
    expect(hash32('a')).not.toBe(hash32('b'));
  });
});
