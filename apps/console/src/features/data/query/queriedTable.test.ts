import { describe, expect, it } from 'vitest';
import { queriedTable } from './queriedTable';

describe('queriedTable', () => {
  it('finds the first table after FROM, with or without a database or quotes', () => {
    expect(queriedTable('SELECT * FROM pageviews WHERE x')).toBe('pageviews');
    expect(queriedTable('select 1\nfrom web.Orders o')).toBe('orders');
    expect(queriedTable('SELECT * FROM "web"."users"')).toBe('users');
  });

  it('is null before a FROM is written', () => {
    expect(queriedTable('SELECT count(*)')).toBeNull();
  });
});
