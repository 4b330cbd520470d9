import { describe, expect, it } from 'vitest';
import { countOf } from './words';

describe('counts in words', () => {
  it('uses the singular for one and the plural otherwise', () => {
    expect(countOf(1, 'behavior')).toBe('1 behavior');
    expect(countOf(0, 'behavior')).toBe('0 behaviors');
    expect(countOf(1200, 'profile')).toBe('1,200 profiles');
    expect(countOf(2, 'entry', 'entries')).toBe('2 entries');
  });
});
