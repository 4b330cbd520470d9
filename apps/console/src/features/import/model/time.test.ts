import { describe, expect, it } from 'vitest';
import { compileFormat, convertTime, detectTimeForm, suggestTimeColumn, type TimeSettings } from './time';
import { zoneOffsetMs } from './zone';

const utc = (form: TimeSettings['form'], format = ''): TimeSettings => ({ form, format, timeZone: 'UTC' });
const ok = (time: number) => ({ ok: true, time });
const seconds = (iso: string) => Date.parse(iso) / 1000;

describe('convertTime: Unix seconds and milliseconds', () => {
  it('reads seconds from numbers and numeric text, dropping fractions', () => {
    expect(convertTime(1700000000, utc('unix_s'))).toEqual(ok(1700000000));
    expect(convertTime('1700000000', utc('unix_s'))).toEqual(ok(1700000000));
    expect(convertTime('1700000000.75', utc('unix_s'))).toEqual(ok(1700000000));
    expect(convertTime(-1.5, utc('unix_s'))).toEqual(ok(-2));
  });

  it('reads milliseconds', () => {
    expect(convertTime(1700000000123, utc('unix_ms'))).toEqual(ok(1700000000));
    expect(convertTime('1700000000999', utc('unix_ms'))).toEqual(ok(1700000000));
  });

  it('rejects text, empty values and times beyond the year 9999', () => {
    expect(convertTime('soon', utc('unix_s'))).toMatchObject({
      ok: false,
      reason: '"soon" is not a number of seconds',
    });
    expect(convertTime('', utc('unix_s'))).toMatchObject({ ok: false, reason: 'the time is empty' });
    expect(convertTime(null, utc('unix_ms'))).toMatchObject({ ok: false });
    expect(convertTime(1e13, utc('unix_s'))).toMatchObject({
      ok: false,
      reason: '"10000000000000" is outside the years 1 to 9999',
    });
    expect(convertTime(Number.NaN, utc('unix_s'))).toMatchObject({ ok: false });
  });
});

describe('convertTime: ISO 8601', () => {
  it('reads UTC, offsets and fractions', () => {
    expect(convertTime('2024-05-01T12:00:00Z', utc('iso8601'))).toEqual(ok(seconds('2024-05-01T12:00:00Z')));
    expect(convertTime('2024-05-01T12:00:00+02:00', utc('iso8601'))).toEqual(ok(seconds('2024-05-01T10:00:00Z')));
    expect(convertTime('2024-05-01T12:00:00-0530', utc('iso8601'))).toEqual(ok(seconds('2024-05-01T17:30:00Z')));
    expect(convertTime('2024-05-01 12:00:00.999Z', utc('iso8601'))).toEqual(ok(seconds('2024-05-01T12:00:00Z')));
    expect(convertTime('2024-05-01', utc('iso8601'))).toEqual(ok(seconds('2024-05-01T00:00:00Z')));
    expect(convertTime('2024-05-01T12:30', utc('iso8601'))).toEqual(ok(seconds('2024-05-01T12:30:00Z')));
  });

  it('reads times without an offset in the chosen time zone', () => {
    const tokyo = { form: 'iso8601' as const, format: '', timeZone: 'Asia/Tokyo' };
    expect(convertTime('2024-05-01T09:00:00', tokyo)).toEqual(ok(seconds('2024-05-01T00:00:00Z')));
    // An explicit offset wins over the zone.
    expect(convertTime('2024-05-01T09:00:00Z', tokyo)).toEqual(ok(seconds('2024-05-01T09:00:00Z')));
    const ny = { form: 'iso8601' as const, format: '', timeZone: 'America/New_York' };
    expect(convertTime('2024-01-15T12:00:00', ny)).toEqual(ok(seconds('2024-01-15T17:00:00Z')));
    expect(convertTime('2024-07-15T12:00:00', ny)).toEqual(ok(seconds('2024-07-15T16:00:00Z')));
  });

  it('handles daylight saving gaps and overlaps predictably', () => {
    const ny = { form: 'iso8601' as const, format: '', timeZone: 'America/New_York' };
    // 02:30 does not exist on 2024-03-10: read with the offset before the jump (-05:00).
    expect(convertTime('2024-03-10T02:30:00', ny)).toEqual(ok(seconds('2024-03-10T07:30:00Z')));
    // 01:30 happens twice on 2024-11-03: the earlier (-04:00) is taken.
    expect(convertTime('2024-11-03T01:30:00', ny)).toEqual(ok(seconds('2024-11-03T05:30:00Z')));
    const berlin = { form: 'iso8601' as const, format: '', timeZone: 'Europe/Berlin' };
    expect(convertTime('2024-10-27T02:30:00', berlin)).toEqual(ok(seconds('2024-10-27T00:30:00Z')));
  });

  it('rejects impossible dates and other text', () => {
    expect(convertTime('2024-02-30T00:00:00Z', utc('iso8601'))).toMatchObject({
      ok: false,
      reason: '"2024-02-30T00:00:00Z": there is no day 30 in that month',
    });
    expect(convertTime('2023-02-29', utc('iso8601'))).toMatchObject({ ok: false });
    expect(convertTime('2024-02-29', utc('iso8601'))).toEqual(ok(seconds('2024-02-29T00:00:00Z')));
    expect(convertTime('2024-13-01', utc('iso8601'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no month 13'),
    });
    expect(convertTime('2024-05-01T25:00:00Z', utc('iso8601'))).toMatchObject({ ok: false });
    expect(convertTime('not a date', utc('iso8601'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('ISO 8601'),
    });
    expect(convertTime(1700000000, utc('iso8601'))).toMatchObject({ ok: false });
  });
});

describe('convertTime: custom formats', () => {
  it('reads yyyy-MM-dd HH:mm:ss in a time zone', () => {
    const paris = { form: 'custom' as const, format: 'yyyy-MM-dd HH:mm:ss', timeZone: 'Europe/Paris' };
    expect(convertTime('2024-05-01 14:15:16', paris)).toEqual(ok(seconds('2024-05-01T12:15:16Z')));
    expect(convertTime('2024-12-01 14:15:16', paris)).toEqual(ok(seconds('2024-12-01T13:15:16Z')));
  });

  it('reads day-first dates, 12-hour clocks, month names, milliseconds, two-digit years and offsets', () => {
    expect(convertTime('31/12/2023 11:05 PM', utc('custom', 'dd/MM/yyyy hh:mm a'))).toEqual(
      ok(seconds('2023-12-31T23:05:00Z')),
    );
    expect(convertTime('01/01/2024 12:00 am', utc('custom', 'dd/MM/yyyy hh:mm a'))).toEqual(
      ok(seconds('2024-01-01T00:00:00Z')),
    );
    expect(convertTime('Mar 5 2024', utc('custom', 'MMM d yyyy'))).toEqual(ok(seconds('2024-03-05T00:00:00Z')));
    expect(convertTime('2024-03-05 10:00:00.250', utc('custom', 'yyyy-MM-dd HH:mm:ss.SSS'))).toEqual(
      ok(seconds('2024-03-05T10:00:00Z')),
    );
    expect(convertTime('05.03.24', utc('custom', 'dd.MM.yy'))).toEqual(ok(seconds('2024-03-05T00:00:00Z')));
    expect(convertTime('05.03.99', utc('custom', 'dd.MM.yy'))).toEqual(ok(seconds('1999-03-05T00:00:00Z')));
    expect(convertTime('2024-03-05T10:00:00+0100', utc('custom', "yyyy-MM-dd'T'HH:mm:ssZ"))).toEqual(
      ok(seconds('2024-03-05T09:00:00Z')),
    );
    expect(convertTime('20240305', utc('custom', 'yyyyMMdd'))).toEqual(ok(seconds('2024-03-05T00:00:00Z')));
    expect(convertTime('2024-03-05 10:00 -05:30', utc('custom', 'yyyy-MM-dd HH:mm ZZ'))).toEqual(
      ok(seconds('2024-03-05T15:30:00Z')),
    );
    expect(convertTime('2024-03-05 10:00 Z', utc('custom', 'yyyy-MM-dd HH:mm ZZ'))).toEqual(
      ok(seconds('2024-03-05T10:00:00Z')),
    );
  });

  it('rejects values that do not match, impossible values and incomplete formats', () => {
    const f = utc('custom', 'yyyy-MM-dd HH:mm:ss');
    expect(convertTime('2024-05-01', f)).toMatchObject({
      ok: false,
      reason: '"2024-05-01" does not match the format yyyy-MM-dd HH:mm:ss',
    });
    expect(convertTime('2024-05-01 24:00:00', f)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('out of range'),
    });
    expect(convertTime('13/01/2024 01:00 PM', utc('custom', 'dd/MM/yyyy hh:mm a'))).toMatchObject({ ok: true });
    expect(convertTime('01/01/2024 13:00 PM', utc('custom', 'dd/MM/yyyy hh:mm a'))).toMatchObject({ ok: false });
    expect(convertTime('Foo 5 2024', utc('custom', 'MMM d yyyy'))).toMatchObject({ ok: false });
    expect(() => compileFormat('HH:mm')).toThrow(/year/);
    expect(convertTime('10:00', utc('custom', 'HH:mm'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('needs a year'),
    });
  });
});

describe('detecting the time form and column', () => {
  it('tells seconds, milliseconds and ISO 8601 apart', () => {
    expect(detectTimeForm(['1700000000', '1700000100'])).toBe('unix_s');
    expect(detectTimeForm([1700000000123, 1700000000456])).toBe('unix_ms');
    expect(detectTimeForm(['2024-05-01T00:00:00Z', '2024-05-02', ''])).toBe('iso8601');
    expect(detectTimeForm(['ann', 'bob'])).toBeNull();
    expect(detectTimeForm(['12', '42'])).toBeNull();
    expect(detectTimeForm([])).toBeNull();
  });

  it('prefers a column with a time-like name', () => {
    const data: Record<string, string[]> = { id: ['1700000000'], created_at: ['2024-01-01'], user: ['ann'] };
    expect(suggestTimeColumn(['id', 'created_at', 'user'], (c) => data[c] ?? [])).toBe('created_at');
    expect(suggestTimeColumn(['id', 'user'], (c) => data[c] ?? [])).toBe('id');
    expect(suggestTimeColumn(['user'], (c) => data[c] ?? [])).toBeNull();
  });
});

describe('edge cases: compact ISO, finer Unix units, years below 100', () => {
  const at = (form: TimeSettings['form'], timeZone = 'UTC'): TimeSettings => ({ form, format: '', timeZone });
  const may1noon = Date.UTC(2024, 4, 1, 12) / 1000;

  it('reads the basic (compact) ISO 8601 form, with and without an offset', () => {
    expect(convertTime('20240501T120000Z', at('iso8601'))).toEqual({ ok: true, time: may1noon });
    expect(convertTime('20240501T1200Z', at('iso8601'))).toEqual({ ok: true, time: may1noon });
    expect(convertTime('20240501T210000+0900', at('iso8601'))).toEqual({ ok: true, time: may1noon });
    expect(convertTime('20240501T120000.750Z', at('iso8601'))).toEqual({ ok: true, time: may1noon });
    expect(convertTime('20240501', at('iso8601'))).toEqual({ ok: true, time: Date.UTC(2024, 4, 1) / 1000 });
    // Without an offset the chosen zone applies, as for the extended form.
    expect(convertTime('20240501T210000', at('iso8601', 'Asia/Tokyo'))).toEqual({ ok: true, time: may1noon });
    expect(convertTime('20241301T120000Z', at('iso8601'))).toMatchObject({ ok: false });
    expect(convertTime('2024051T120000Z', at('iso8601'))).toMatchObject({ ok: false });
  });

  it('converts Unix microseconds and nanoseconds, as numbers or text', () => {
    expect(convertTime('1714564800123456', at('unix_us'))).toEqual({ ok: true, time: 1714564800 });
    expect(convertTime(1714564800999999, at('unix_us'))).toEqual({ ok: true, time: 1714564800 });
    expect(convertTime('1714564800123456789', at('unix_ns'))).toEqual({ ok: true, time: 1714564800 });
    expect(convertTime('-1000000', at('unix_us'))).toEqual({ ok: true, time: -1 });
    expect(convertTime('soon', at('unix_ns'))).toEqual({
      ok: false,
      reason: '"soon" is not a number of nanoseconds',
    });
    expect(convertTime('9e25', at('unix_ns'))).toMatchObject({ ok: false, reason: expect.stringContaining('9999') });
  });

  it('detects microseconds and nanoseconds by magnitude', () => {
    expect(detectTimeForm(['1714564800123456', '1714564801123456'])).toBe('unix_us');
    expect(detectTimeForm(['1714564800123456789', 1714564801123456800])).toBe('unix_ns');
    expect(detectTimeForm(['20240501T120000Z', '20240502T000000Z'])).toBe('iso8601');
  });

  it('zone offsets are right for years 0 to 99 (Date.UTC would read them as 1900 to 1999)', () => {
    const year50 = new Date(0);
    year50.setUTCFullYear(50, 5, 1);
    year50.setUTCHours(12, 0, 0, 0);
    expect(zoneOffsetMs('Etc/GMT-9', year50.getTime())).toBe(9 * 3_600_000);
    expect(zoneOffsetMs('Etc/GMT+5', year50.getTime())).toBe(-5 * 3_600_000);
    // And a wall time of that year in a zone converts back to the instant.
    expect(convertTime('0050-06-01T21:00:00', at('iso8601', 'Etc/GMT-9'))).toEqual({
      ok: true,
      time: year50.getTime() / 1000,
    });
  });
});
