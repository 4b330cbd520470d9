import { describe, expect, it } from 'vitest';
import { lastSlot, scheduleDue } from './schedule';

const utc = (text: string) => Date.parse(text);

describe('activation delivery schedule', () => {
  it('finds the latest daily slot in the activation time zone', () => {
    // 06:00 in Tokyo is 21:00 UTC the day before.
    expect(lastSlot('daily', '06:00', 'Asia/Tokyo', utc('2026-11-22T22:00:00Z'))).toBe(utc('2026-11-22T21:00:00Z'));
    expect(lastSlot('daily', '06:00', 'Asia/Tokyo', utc('2026-11-22T20:59:00Z'))).toBe(utc('2026-11-21T21:00:00Z'));
    expect(lastSlot('daily', '09:30', 'UTC', utc('2026-11-22T09:30:00Z'))).toBe(utc('2026-11-22T09:30:00Z'));
  });

  it('finds the latest hourly slot at the given minute, whatever the hour part', () => {
    expect(lastSlot('hourly', '00:15', 'UTC', utc('2026-11-22T10:14:00Z'))).toBe(utc('2026-11-22T09:15:00Z'));
    expect(lastSlot('hourly', '07:15', 'Asia/Kolkata', utc('2026-11-22T10:50:00Z'))).toBe(utc('2026-11-22T10:45:00Z'));
  });

  it('is due once a slot has come at or after the oldest queued profile', () => {
    const queued = utc('2026-11-22T09:00:00Z');
    expect(scheduleDue('daily', '06:00', 'UTC', queued, utc('2026-11-23T05:59:00Z'))).toBe(false);
    expect(scheduleDue('daily', '06:00', 'UTC', queued, utc('2026-11-23T06:00:00Z'))).toBe(true);
    expect(scheduleDue('none', null, 'UTC', queued, queued)).toBe(true);
  });

  it('keeps wall-clock time across a daylight saving change', () => {
    // Berlin leaves summer time on 2026-10-25: 06:00 local is 04:00 UTC before and 05:00 UTC after.
    expect(lastSlot('daily', '06:00', 'Europe/Berlin', utc('2026-10-24T12:00:00Z'))).toBe(utc('2026-10-24T04:00:00Z'));
    expect(lastSlot('daily', '06:00', 'Europe/Berlin', utc('2026-10-26T12:00:00Z'))).toBe(utc('2026-10-26T05:00:00Z'));
  });
});
