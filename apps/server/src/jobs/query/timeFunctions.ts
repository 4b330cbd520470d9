import { addUnits, intervalRange, parseDuration, truncate, unitOfName } from './intervals';
import { formatJava, formatMysql, parseMysql, parseTime, timestampText, zoneOfTimestamp } from './timeFormats';
import { wallOf, zoneOf } from './timeZones';

/**
 * TD and Presto time functions in JavaScript, which the DuckDB engine registers (duckdb/functions.ts; written for
 * the SQLite engine, gone with decision 0053, whose values they keep). `nowMs` is the job's issue time, so a
 * query sees one fixed "now" (TD_SCHEDULED_TIME, TD_INTERVAL, now()). Booleans come back as 1 and 0.
 */

type Fn = (...args: unknown[]) => unknown;

export function arity(name: string, args: unknown[], min: number, max: number): void {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    throw new TypeError(`${name} takes ${want} arguments, not ${args.length}.`);
  }
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** A Unix time in seconds from a column value; text holding digits is accepted, other text is an error. */
function unixSeconds(name: string, v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  throw new TypeError(`${name}: the time must be a Unix time in seconds, not ${JSON.stringify(String(v))}.`);
}

/** Milliseconds of a timestamp argument (timestamp text, or Unix seconds); an error when unreadable. */
function timestampMs(name: string, v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const ms = parseTime(v);
  if (ms === null) throw new TypeError(`${name}: ${JSON.stringify(String(v))} is not a timestamp.`);
  return ms;
}

function boundMs(name: string, v: unknown, zoneName: unknown, cache: Map<string, number>): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number' || typeof v === 'bigint') return Number(v) * 1000;
  const key = `${String(v)}|${String(zoneName ?? '')}`;
  let ms = cache.get(key);
  if (ms === undefined) {
    const parsed = parseTime(v, zoneOf(zoneName));
    if (parsed === null) throw new TypeError(`${name}: ${JSON.stringify(String(v))} is not a date or time.`);
    ms = parsed;
    if (cache.size > 10_000) cache.clear();
    cache.set(key, ms);
  }
  return ms;
}

export function timeFunctions(nowMs: number): Record<string, Fn> {
  const bounds = new Map<string, number>();
  const intervals = new Map<string, [number, number]>();
  return {
    td_time_range(...args) {
      arity('TD_TIME_RANGE', args, 2, 4);
      const [time, start, end, tz] = args;
      const t = unixSeconds('TD_TIME_RANGE', time);
      if (t === null) return null;
      const from = boundMs('TD_TIME_RANGE', start, tz, bounds);
      const to = boundMs('TD_TIME_RANGE', end, tz, bounds);
      const ms = t * 1000;
      return (from === null || ms >= from) && (to === null || ms < to) ? 1 : 0;
    },
    td_interval(...args) {
      arity('TD_INTERVAL', args, 2, 3);
      const [time, spec, tz] = args;
      const t = unixSeconds('TD_INTERVAL', time);
      if (t === null) return null;
      const key = `${String(spec)}|${String(tz ?? '')}`;
      let range = intervals.get(key);
      if (!range) {
        range = intervalRange(String(spec), nowMs, zoneOf(tz));
        intervals.set(key, range);
      }
      const ms = t * 1000;
      return ms >= range[0] && ms < range[1] ? 1 : 0;
    },
    td_time_format(...args) {
      arity('TD_TIME_FORMAT', args, 2, 3);
      const [time, format, tz] = args;
      const t = unixSeconds('TD_TIME_FORMAT', time);
      if (t === null || format === null) return null;
      return formatJava(t * 1000, String(format), zoneOf(tz));
    },
    td_time_parse(...args) {
      arity('TD_TIME_PARSE', args, 1, 2);
      const [text, tz] = args;
      if (text === null) return null;
      const ms = parseTime(String(text), zoneOf(tz));
      return ms === null ? null : seconds(ms);
    },
    td_time_add(...args) {
      arity('TD_TIME_ADD', args, 2, 3);
      const [time, duration, tz] = args;
      const t = unixSeconds('TD_TIME_ADD', time);
      if (t === null || duration === null) return null;
      const d = parseDuration(String(duration));
      if (!d) throw new TypeError(`TD_TIME_ADD: "${String(duration)}" is not a duration such as '1d' or '-2h'.`);
      return seconds(addUnits(t * 1000, d.n, d.unit, zoneOf(tz)));
    },
    td_date_trunc(...args) {
      arity('TD_DATE_TRUNC', args, 2, 3);
      const [unit, time, tz] = args;
      const t = unixSeconds('TD_DATE_TRUNC', time);
      if (t === null) return null;
      return seconds(truncate(t * 1000, unitOfName(String(unit)), zoneOf(tz)));
    },
    td_scheduled_time(...args) {
      arity('TD_SCHEDULED_TIME', args, 0, 0);
      return seconds(nowMs);
    },
    now(...args) {
      arity('now', args, 0, 0);
      return timestampText(nowMs);
    },
    from_unixtime(...args) {
      arity('from_unixtime', args, 1, 2);
      const [time, tz] = args;
      const t = unixSeconds('from_unixtime', time);
      if (t === null) return null;
      return timestampText(Math.round(t * 1000), tz === undefined || tz === null ? undefined : zoneOf(tz));
    },
    to_unixtime(...args) {
      arity('to_unixtime', args, 1, 1);
      const ms = timestampMs('to_unixtime', args[0]);
      return ms === null ? null : ms / 1000;
    },
    date_format(...args) {
      arity('date_format', args, 2, 2);
      const [ts, format] = args;
      const ms = timestampMs('date_format', ts);
      if (ms === null || format === null) return null;
      return formatMysql(ms, String(format), zoneOfTimestamp(ts));
    },
    format_datetime(...args) {
      arity('format_datetime', args, 2, 2);
      const [ts, format] = args;
      const ms = timestampMs('format_datetime', ts);
      if (ms === null || format === null) return null;
      return formatJava(ms, String(format), zoneOfTimestamp(ts));
    },
    date_parse(...args) {
      arity('date_parse', args, 2, 2);
      const [text, format] = args;
      if (text === null || format === null) return null;
      const ms = parseMysql(String(text), String(format));
      if (ms === null) throw new TypeError(`date_parse: "${String(text)}" does not match "${String(format)}".`);
      return timestampText(ms);
    },
    from_iso8601_timestamp(...args) {
      arity('from_iso8601_timestamp', args, 1, 1);
      return args[0] === null ? null : timestampText(timestampMs('from_iso8601_timestamp', String(args[0])) as number);
    },
    to_iso8601(...args) {
      arity('to_iso8601', args, 1, 1);
      const ms = timestampMs('to_iso8601', args[0]);
      return ms === null ? null : new Date(ms).toISOString();
    },
    date_trunc(...args) {
      arity('date_trunc', args, 2, 2);
      const [unit, ts] = args;
      const ms = timestampMs('date_trunc', ts);
      if (ms === null) return null;
      const zone = zoneOfTimestamp(ts);
      return timestampText(truncate(ms, unitOfName(String(unit)), zone), zone.name === 'UTC' ? undefined : zone);
    },
    ...calendarFields(),
  };
}

/** year(ts), month(ts)… of a timestamp, on its own zone's clock. */
function calendarFields(): Record<string, Fn> {
  const fields = {
    year: 'year',
    month: 'month',
    day: 'day',
    hour: 'hour',
    minute: 'minute',
    second: 'second',
  } as const;
  const out: Record<string, Fn> = {};
  for (const [name, field] of Object.entries(fields)) {
    out[name] = (...args) => {
      arity(name, args, 1, 1);
      const ms = timestampMs(name, args[0]);
      return ms === null ? null : wallOf(ms, zoneOfTimestamp(args[0]))[field];
    };
  }
  out.day_of_week = (...args) => {
    arity('day_of_week', args, 1, 1);
    const ms = timestampMs('day_of_week', args[0]);
    if (ms === null) return null;
    const weekday = wallOf(ms, zoneOfTimestamp(args[0])).weekday;
    return weekday === 0 ? 7 : weekday;
  };
  return out;
}
