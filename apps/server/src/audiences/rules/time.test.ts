import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors';
import { shift, timeBounds, toSeconds } from './time';

const utc = (iso: string) => Date.parse(iso) / 1000;
const at = (iso: string) => new Date(iso);

describe('time filter bounds', () => {
  describe('date-only values mean whole UTC days', () => {
    it('includes the whole last day of a range: the bound is the next midnight, exclusive', () => {
      expect(
        timeBounds({ type: 'TimeRange', from: '2026-01-01', to: '2026-01-31' }, at('2026-03-01T00:00:00Z'), 't'),
      ).toEqual({
        from: utc('2026-01-01T00:00:00Z'),
        to: utc('2026-02-01T00:00:00Z'),
        fromExclusive: false,
        toExclusive: true,
      });
    });

    it('allows a range of one day', () => {
      const b = timeBounds(
        { type: 'TimeRange', from: '2026-01-31', to: '2026-01-31' },
        at('2026-03-01T00:00:00Z'),
        't',
      );
      expect([b.from, b.to]).toEqual([utc('2026-01-31T00:00:00Z'), utc('2026-02-01T00:00:00Z')]);
    });

    it('starts TimeAfter a date after that day ends, and ends TimeBefore a date before it starts', () => {
      const now = at('2026-03-01T00:00:00Z');
      expect(timeBounds({ type: 'TimeAfter', rightValue: '2026-01-31' }, now, 't')).toEqual({
        from: utc('2026-02-01T00:00:00Z'),
        to: null,
        fromExclusive: false,
        toExclusive: false,
      });
      expect(timeBounds({ type: 'TimeBefore', rightValue: '2026-01-31' }, now, 't')).toEqual({
        from: null,
        to: utc('2026-01-31T00:00:00Z'),
        fromExclusive: false,
        toExclusive: true,
      });
    });

    it('refuses days that do not exist rather than rolling them over', () => {
      expect(() => toSeconds('2026-02-30', 't')).toThrow(ApiError);
      expect(() => toSeconds('2026-13-01', 't')).toThrow(ApiError);
      expect(toSeconds('2028-02-29', 't')).toBe(utc('2028-02-29T00:00:00Z'));
    });
  });

  it('keeps the exact meaning of full timestamps and Unix seconds', () => {
    const now = at('2026-03-01T00:00:00Z');
    const to = '2026-01-31T10:30:00Z';
    expect(timeBounds({ type: 'TimeRange', from: 100, to }, now, 't')).toEqual({
      from: 100,
      to: utc(to),
      fromExclusive: false,
      toExclusive: false,
    });
    expect(timeBounds({ type: 'TimeAfter', rightValue: to }, now, 't')).toMatchObject({
      from: utc(to),
      fromExclusive: true,
    });
    expect(timeBounds({ type: 'TimeBefore', rightValue: '1769855400' }, now, 't')).toMatchObject({
      to: 1769855400,
      toExclusive: true,
    });
    expect(() => timeBounds({ type: 'TimeRange', from: to, to: 100 }, now, 't')).toThrow('ends before it starts');
  });

  describe('months clamp the day to the target month', () => {
    it.each([
      ['Mar 31, back 1 month: Feb 28 (2026, not a leap year)', '2026-03-31T12:00:00Z', -1, '2026-02-28T12:00:00Z'],
      ['Mar 31, back 1 month: Feb 29 (2028, a leap year)', '2028-03-31T12:00:00Z', -1, '2028-02-29T12:00:00Z'],
      ['Jan 31, on 1 month: Feb 28 (2026)', '2026-01-31T08:15:00Z', 1, '2026-02-28T08:15:00Z'],
      ['Jan 31, on 1 month: Feb 29 (2028)', '2028-01-31T08:15:00Z', 1, '2028-02-29T08:15:00Z'],
      ['May 31, back 1 month: Apr 30', '2026-05-31T00:00:00Z', -1, '2026-04-30T00:00:00Z'],
      ['Jan 31, back 2 months across the year: Nov 30', '2026-01-31T00:00:00Z', -2, '2025-11-30T00:00:00Z'],
      ['Dec 31, on 2 months across the year: Feb 28', '2026-12-31T00:00:00Z', 2, '2027-02-28T00:00:00Z'],
      ['a mid-month day stays', '2026-03-15T00:00:00Z', -1, '2026-02-15T00:00:00Z'],
    ])('%s', (_name, from, months, expected) => {
      expect(shift(at(from), months, 'month')).toBe(utc(expected));
    });

    it('starts "within the past 1 month" on Mar 31 at Feb 28, not Mar 3', () => {
      const b = timeBounds({ type: 'TimeWithinPast', value: 1, unit: 'month' }, at('2026-03-31T09:00:00Z'), 't');
      expect(b).toEqual({
        from: utc('2026-02-28T09:00:00Z'),
        to: utc('2026-03-31T09:00:00Z'),
        fromExclusive: false,
        toExclusive: false,
      });
    });

    it('ends "within the next N" months and weeks where the calendar says', () => {
      const now = at('2026-01-31T09:00:00Z');
      expect(timeBounds({ type: 'TimeWithinNext', value: 1, unit: 'month' }, now, 't')).toMatchObject({
        from: utc('2026-01-31T09:00:00Z'),
        to: utc('2026-02-28T09:00:00Z'),
      });
      expect(timeBounds({ type: 'TimeWithinNext', value: 3, unit: 'month' }, now, 't').to).toBe(
        utc('2026-04-30T09:00:00Z'),
      );
      expect(timeBounds({ type: 'TimeWithinNext', value: 2, unit: 'week' }, now, 't').to).toBe(
        utc('2026-02-14T09:00:00Z'),
      );
      expect(timeBounds({ type: 'TimeWithinNext', value: 1, unit: 'month' }, at('2028-01-31T09:00:00Z'), 't').to).toBe(
        utc('2028-02-29T09:00:00Z'),
      );
    });
  });
});
