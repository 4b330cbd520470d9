import { describe, expect, it } from 'vitest';
import type { CustomerFilter } from '../api';
import { filterKey, type PageCursors, pageRequest, withNext } from './profilePages';

const filter = (page: number, patch: Partial<CustomerFilter> = {}): CustomerFilter => ({
  status: 'active',
  page,
  perPage: 50,
  ...patch,
});

describe('Profiles tab paging by cursor', () => {
  const none: PageCursors = { filter: filterKey(filter(1)), after: new Map() };

  it('asks for the next page by the cursor the page before answered, and for other pages by number', () => {
    const known = withNext(withNext(none, filter(1), 'c1'), filter(2), 'c2');
    expect(pageRequest(filter(1), known)).toEqual({ page: 1 });
    expect(pageRequest(filter(2), known)).toEqual({ page: 2, after: 'c1' });
    expect(pageRequest(filter(3), known)).toEqual({ page: 3, after: 'c2' });
    expect(pageRequest(filter(7), known)).toEqual({ page: 7 });
  });

  it('starts over when the filter changes, and keeps nothing for the last page', () => {
    const known = withNext(none, filter(1), 'c1');
    expect(pageRequest(filter(2, { status: 'left' }), known)).toEqual({ page: 2 });
    expect(pageRequest(filter(2, { perPage: 20 }), known)).toEqual({ page: 2 });
    const other = withNext(known, filter(1, { stage: 's2' }), 'd1');
    expect(pageRequest(filter(2), other)).toEqual({ page: 2 });
    expect(pageRequest(filter(2, { stage: 's2' }), other)).toEqual({ page: 2, after: 'd1' });
    expect(withNext(known, filter(2), null)).toBe(known);
  });
});
