import { describe, expect, it } from 'vitest';
import { evenSplit } from './split';

describe('evenSplit', () => {
  it('gives whole percentages summing to 100 for 1 to 9 variants', () => {
    for (let n = 1; n <= 9; n++) {
      const shares = evenSplit(n);
      expect(shares).toHaveLength(n);
      expect(shares.every(Number.isInteger)).toBe(true);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(100);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
  });

  it('gives the remainder one point at a time to the first variants, the control first', () => {
    expect(evenSplit(3)).toEqual([34, 33, 33]);
    expect(evenSplit(6)).toEqual([17, 17, 17, 17, 16, 16]);
    expect(evenSplit(4)).toEqual([25, 25, 25, 25]);
  });

  it('gives nothing for no variants', () => {
    expect(evenSplit(0)).toEqual([]);
  });
});
