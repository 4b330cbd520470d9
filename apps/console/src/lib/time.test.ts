import { describe, expect, it } from 'vitest';
import { formatExact, formatRelative } from './time';

const now = new Date('2025-03-12T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('formatRelative', () => {
  it('says "just now" for the last 45 seconds', () => {
    expect(formatRelative(ago(10), now)).toBe('just now');
  });

  it('uses the largest whole unit', () => {
    expect(formatRelative(ago(50), now)).toBe('1 minute ago');
    expect(formatRelative(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(formatRelative(ago(3 * 3600 + 59 * 60), now)).toBe('3 hours ago');
    expect(formatRelative(ago(24 * 3600), now)).toBe('yesterday');
    expect(formatRelative(ago(15 * 24 * 3600), now)).toBe('2 weeks ago');
    expect(formatRelative(ago(400 * 24 * 3600), now)).toBe('last year');
  });

  it('handles times in the future', () => {
    expect(formatRelative(ago(-2 * 3600), now)).toBe('in 2 hours');
  });

  it('speaks the locale asked for, whichever was asked before', () => {
    expect(formatRelative(ago(5 * 60), now, 'de')).toBe('vor 5 Minuten');
    expect(formatRelative(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(formatRelative(ago(24 * 3600), now, 'de')).toBe('gestern');
  });
});

describe('formatExact', () => {
  it('shows date, time to the second and the zone', () => {
    expect(formatExact(new Date('2025-03-12T14:05:09Z'), 'en-GB', 'UTC')).toBe('12 Mar 2025, 14:05:09 UTC');
  });

  it('keeps each zone and locale apart when formatting many times', () => {
    const at = new Date('2025-03-12T14:05:09Z');
    for (let i = 0; i < 3; i++) {
      expect(formatExact(at, 'en-GB', 'UTC')).toBe('12 Mar 2025, 14:05:09 UTC');
      expect(formatExact(at, 'en-GB', 'Asia/Tokyo')).toBe('12 Mar 2025, 23:05:09 GMT+9');
      expect(formatExact(at, 'en-US', 'UTC')).toBe('Mar 12, 2025, 02:05:09 PM UTC');
      expect(formatExact(new Date('2025-03-12T14:05:10Z'), 'en-GB', 'UTC')).toBe('12 Mar 2025, 14:05:10 UTC');
    }
  });
});
