import { describe, expect, it } from 'vitest';
import { patchSearch } from './useUrlState';

describe('engine view state in the URL', () => {
  it('sets, replaces and removes parameters, keeping the others', () => {
    const next = patchSearch(new URLSearchParams('tab=profiles&stage=s1&page=3'), {
      stage: 's2',
      page: 1,
      step: undefined,
      tab: null,
      status: '',
    });
    expect(next.toString()).toBe('stage=s2&page=1');
  });
});
