import { describe, expect, it } from 'vitest';
import { duckQueries } from '../testing/duckValues';

// On DuckDB, the embedded engine, as a query job runs them. The job's "now": Friday 2024-03-15 10:30:00 UTC (19:30 in Tokyo).
const NOW = Date.UTC(2024, 2, 15, 10, 30, 0);
const { value } = duckQueries(NOW);

const at = (iso: string) => Date.parse(iso) / 1000;
const JAN_1 = at('2024-01-01T00:00:00Z');

describe('TD_TIME_RANGE', () => {
  it('is true from the start (included) to the end (excluded)', async () => {
    expect(await value("TD_TIME_RANGE(?, '2024-01-01', '2024-01-02')", JAN_1)).toBe(1);
    expect(await value("TD_TIME_RANGE(?, '2024-01-01', '2024-01-02')", JAN_1 + 86399)).toBe(1);
    expect(await value("TD_TIME_RANGE(?, '2024-01-01', '2024-01-02')", JAN_1 + 86400)).toBe(0);
    expect(await value("TD_TIME_RANGE(?, '2024-01-01', '2024-01-02')", JAN_1 - 1)).toBe(0);
  });

  it('leaves a NULL or missing bound open', async () => {
    expect(await value("TD_TIME_RANGE(?, NULL, '2024-01-01')", 0)).toBe(1);
    expect(await value("TD_TIME_RANGE(?, '2024-01-01')", JAN_1 + 10 ** 6)).toBe(1);
  });

  it('reads dates in the given time zone and takes Unix-time bounds', async () => {
    // 2024-01-01 00:00 in Tokyo is 2023-12-31 15:00 UTC.
    expect(await value("TD_TIME_RANGE(?, '2024-01-01', '2024-01-02', 'JST')", JAN_1 - 9 * 3600)).toBe(1);
    expect(await value("TD_TIME_RANGE(?, '2024-01-01', NULL, 'Asia/Tokyo')", JAN_1 - 9 * 3600 - 1)).toBe(0);
    expect(await value("TD_TIME_RANGE(?, '2024-01-01 09:00:00 +0900', NULL)", JAN_1)).toBe(1);
    expect(await value('TD_TIME_RANGE(100, 50, 150)')).toBe(1);
  });

  it('answers NULL for a NULL time and refuses unreadable bounds', async () => {
    expect(await value("TD_TIME_RANGE(NULL, '2024-01-01')")).toBeNull();
    await expect(value("TD_TIME_RANGE(1, 'yesterday')")).rejects.toThrow(/"yesterday" is not a date or time/);
    await expect(value('TD_TIME_RANGE(1)')).rejects.toThrow(/takes 2 to 4 arguments/);
    await expect(value("TD_TIME_RANGE(1, '2024-01-01', NULL, 'Mars/Olympus')")).rejects.toThrow(/Unknown time zone/);
  });
});

describe('TD_TIME_FORMAT', () => {
  it('formats with Java date patterns in a zone', async () => {
    expect(await value("TD_TIME_FORMAT(?, 'yyyy-MM-dd HH:mm:ss z')", JAN_1)).toBe('2024-01-01 00:00:00 UTC');
    expect(await value("TD_TIME_FORMAT(?, 'yyyy-MM-dd HH:mm:ss z', 'JST')", JAN_1)).toBe('2024-01-01 09:00:00 JST');
    expect(await value("TD_TIME_FORMAT(?, 'EEE MMM d, h a Z', 'JST')", JAN_1)).toBe('Mon Jan 1, 9 AM +0900');
    expect(await value("TD_TIME_FORMAT(?, 'yy/M/d ''at'' SSS')", JAN_1)).toBe('24/1/1 at 000');
  });

  it('follows daylight saving time', async () => {
    const beforeSwitch = at('2024-03-10T08:00:00Z');
    const afterSwitch = at('2024-03-10T10:00:00Z');
    expect(await value("TD_TIME_FORMAT(?, 'HH:mm z', 'America/Los_Angeles')", beforeSwitch)).toBe('00:00 PST');
    expect(await value("TD_TIME_FORMAT(?, 'HH:mm z', 'America/Los_Angeles')", afterSwitch)).toBe('03:00 PDT');
  });
});

describe('TD_TIME_PARSE', () => {
  it('reads dates and times, with zones, into Unix seconds', async () => {
    expect(await value("TD_TIME_PARSE('2024-01-01')")).toBe(JAN_1);
    expect(await value("TD_TIME_PARSE('2024-01-01 09:00:00', 'JST')")).toBe(JAN_1);
    expect(await value("TD_TIME_PARSE('2024-01-01T09:00:00+09:00')")).toBe(JAN_1);
    expect(await value("TD_TIME_PARSE('2024-01-01 00:00:00 UTC')")).toBe(JAN_1);
  });

  it('is NULL for text that is not a time', async () => {
    expect(await value("TD_TIME_PARSE('not a time')")).toBeNull();
  });
});

describe('TD_INTERVAL', () => {
  const inside = (spec: string, iso: string, tz = 'UTC') => value('TD_INTERVAL(?, ?, ?)', at(iso), spec, tz);

  it('-1d is yesterday and 1d today', async () => {
    expect(await inside('-1d', '2024-03-14T12:00:00Z')).toBe(1);
    expect(await inside('-1d', '2024-03-15T00:00:00Z')).toBe(0);
    expect(await inside('1d', '2024-03-15T00:00:00Z')).toBe(1);
    expect(await inside('1d', '2024-03-16T00:00:00Z')).toBe(0);
  });

  it('counts weeks from Monday and months by the calendar', async () => {
    expect(await inside('1w', '2024-03-11T00:00:00Z')).toBe(1);
    expect(await inside('1w', '2024-03-10T23:59:59Z')).toBe(0);
    expect(await inside('-1M', '2024-02-29T23:00:00Z')).toBe(1);
    expect(await inside('-1M', '2024-03-01T00:00:00Z')).toBe(0);
  });

  it('ends at now with /now, and at a date with /<date>', async () => {
    expect(await inside('-7d/now', '2024-03-08T00:00:00Z')).toBe(1);
    expect(await inside('-7d/now', '2024-03-15T10:30:00Z')).toBe(0);
    expect(await inside('0d/now', '2024-03-15T10:29:59Z')).toBe(1);
    expect(await inside('-1d/2024-01-01', '2023-12-31T05:00:00Z')).toBe(1);
    expect(await inside('-1d/2024-01-01', '2024-01-01T00:00:00Z')).toBe(0);
    expect(await inside('-7d/-1d', '2024-03-13T12:00:00Z')).toBe(1);
    expect(await inside('-7d/-1d', '2024-03-14T12:00:00Z')).toBe(0);
  });

  it('truncates on the clock of the given zone', async () => {
    // Tokyo's yesterday, 2024-03-14, runs from 2024-03-13 15:00 to 2024-03-14 15:00 UTC.
    expect(await inside('-1d', '2024-03-13T15:00:00Z', 'JST')).toBe(1);
    expect(await inside('-1d', '2024-03-14T15:00:00Z', 'JST')).toBe(0);
  });

  it('refuses what is not an interval', async () => {
    await expect(value("TD_INTERVAL(1, '-1x')")).rejects.toThrow(/is not an interval/);
    await expect(value("TD_INTERVAL(1, '-1d/someday')")).rejects.toThrow(/not now, a duration or a date/);
  });
});

describe('other TD time functions', () => {
  it('TD_TIME_ADD, TD_DATE_TRUNC and TD_SCHEDULED_TIME', async () => {
    expect(await value("TD_TIME_ADD(?, '1d')", JAN_1)).toBe(JAN_1 + 86400);
    expect(await value("TD_TIME_ADD(?, '-2h')", JAN_1)).toBe(JAN_1 - 7200);
    expect(await value("TD_TIME_ADD(?, '1M')", at('2024-01-31T00:00:00Z'))).toBe(at('2024-02-29T00:00:00Z'));
    expect(await value("TD_DATE_TRUNC('month', ?)", at('2024-02-10T05:00:00Z'))).toBe(at('2024-02-01T00:00:00Z'));
    expect(await value("TD_DATE_TRUNC('day', ?, 'JST')", JAN_1)).toBe(JAN_1 - 9 * 3600);
    expect(await value('TD_SCHEDULED_TIME()')).toBe(NOW / 1000);
  });
});

describe('Presto time functions', () => {
  it('from_unixtime and to_unixtime convert between Unix time and timestamps', async () => {
    expect(await value('from_unixtime(?)', JAN_1)).toBe('2024-01-01 00:00:00.000');
    expect(await value('from_unixtime(?)', JAN_1 + 0.25)).toBe('2024-01-01 00:00:00.250');
    expect(await value("from_unixtime(?, 'Asia/Tokyo')", JAN_1)).toBe('2024-01-01 09:00:00.000 Asia/Tokyo');
    expect(await value('to_unixtime(from_unixtime(?))', JAN_1)).toBe(JAN_1);
    expect(await value("to_unixtime(from_unixtime(?, 'Asia/Tokyo'))", JAN_1)).toBe(JAN_1);
    expect(await value("to_unixtime('2024-01-01 00:00:01.500')")).toBe(JAN_1 + 1.5);
    await expect(value("to_unixtime('soon')")).rejects.toThrow(/is not a timestamp/);
  });

  it('date_format and date_parse use MySQL specifiers', async () => {
    expect(await value("date_format(from_unixtime(?), '%Y-%m-%d %H:%i:%s')", JAN_1)).toBe('2024-01-01 00:00:00');
    expect(await value("date_format(from_unixtime(?, 'Asia/Tokyo'), '%H:%i %p %W %b %e')", JAN_1)).toBe(
      '09:00 AM Monday Jan 1',
    );
    expect(await value("date_parse('2024/01/02 03:04', '%Y/%m/%d %H:%i')")).toBe('2024-01-02 03:04:00.000');
    await expect(value("date_parse('2024-01-02', '%Y/%m/%d')")).rejects.toThrow(/does not match/);
  });

  it('format_datetime, from_iso8601_timestamp, to_iso8601, date_trunc and now', async () => {
    expect(await value("format_datetime(from_unixtime(?), 'yyyy/MM/dd HH:mm')", JAN_1)).toBe('2024/01/01 00:00');
    expect(await value("from_iso8601_timestamp('2024-01-01T09:00:00+09:00')")).toBe('2024-01-01 00:00:00.000');
    expect(await value("to_iso8601('2024-01-01 00:00:00.000')")).toBe('2024-01-01T00:00:00.000Z');
    expect(await value("date_trunc('month', '2024-03-15 10:30:00')")).toBe('2024-03-01 00:00:00.000');
    expect(await value("date_trunc('hour', '2024-03-15 10:30:00.000 Asia/Tokyo')")).toBe(
      '2024-03-15 10:00:00.000 Asia/Tokyo',
    );
    expect(await value('now()')).toBe('2024-03-15 10:30:00.000');
    await expect(value("date_trunc('fortnight', now())")).rejects.toThrow(/Unknown unit/);
  });

  it('year, month, day, hour, minute, second and day_of_week read a timestamp', async () => {
    const ts = '2024-03-15 10:30:45';
    const fields = ['year', 'month', 'day', 'hour', 'minute', 'second', 'day_of_week'];
    const got: unknown[] = [];
    for (const f of fields) got.push(await value(`${f}(?)`, ts));
    expect(got).toEqual([2024, 3, 15, 10, 30, 45, 5]);
  });
});
