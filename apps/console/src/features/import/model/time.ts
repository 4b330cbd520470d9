import type { SourceValue, TimeForm } from './types';
import { zonedToUtcMs } from './zone';

/** Unix seconds the server accepts: years 1 to 9999. */
const MIN_TIME = -62135596800;
const MAX_TIME = 253402300799;

/** A converted time in Unix seconds, or why the value is not a time. */
export type TimeResult = { ok: true; time: number } | { ok: false; reason: string };

export interface TimeSettings {
  form: TimeForm;
  /** The pattern of the `custom` form, e.g. `yyyy-MM-dd HH:mm:ss`. */
  format: string;
  /** IANA zone for times written without an offset. */
  timeZone: string;
}

const quote = (v: SourceValue) => {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
};
const fail = (reason: string): TimeResult => ({ ok: false, reason });

function fromSeconds(seconds: number, value: SourceValue): TimeResult {
  const time = Math.floor(seconds);
  if (time < MIN_TIME || time > MAX_TIME) return fail(`${quote(value)} is outside the years 1 to 9999`);
  return { ok: true, time };
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function numberOf(value: SourceValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value.trim());
  return null;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  /** Minutes east of UTC when the value names its offset. */
  offset: number | null;
}

function fieldsProblem(f: Fields): string | null {
  if (f.year < 1 || f.year > 9999) return 'the year is outside 1 to 9999';
  if (f.month < 1 || f.month > 12) return `there is no month ${f.month}`;
  const days = f.month === 2 && !leap(f.year) ? 28 : (DAYS[f.month - 1] ?? 31);
  if (f.day < 1 || f.day > days) return `there is no day ${f.day} in that month`;
  if (f.hour > 23 || f.minute > 59 || f.second > 59) return 'the time of day is out of range';
  return null;
}

function toSeconds(f: Fields, timeZone: string, value: SourceValue): TimeResult {
  const problem = fieldsProblem(f);
  if (problem) return fail(`${quote(value)}: ${problem}`);
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms);
  // Date.UTC treats years 0-99 as 1900-1999: set the year exactly.
  const d = new Date(wall);
  d.setUTCFullYear(f.year);
  const wallMs = d.getTime();
  const ms = f.offset === null ? zonedToUtcMs(wallMs, timeZone) : wallMs - f.offset * 60_000;
  return fromSeconds(ms / 1000, value);
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
// The basic (compact) form: 20240501, 20240501T1200Z, 20240501T120000.5+0900.
const ISO_BASIC =
  /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(?:(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

function offsetMinutes(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (text === 'Z' || text === 'z') return 0;
  const sign = text[0] === '-' ? -1 : 1;
  const digits = text.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
}

function parseIso(value: SourceValue, timeZone: string): TimeResult {
  if (typeof value !== 'string') return fail(`${quote(value)} is not an ISO 8601 date`);
  const text = value.trim();
  const m = ISO.exec(text) ?? ISO_BASIC.exec(text);
  if (!m) return fail(`${quote(value)} is not an ISO 8601 date (e.g. 2024-05-01T12:00:00Z)`);
  return toSeconds(
    {
      year: Number(m[1]),
      month: Number(m[2]),
      day: Number(m[3]),
      hour: Number(m[4] ?? 0),
      minute: Number(m[5] ?? 0),
      second: Number(m[6] ?? 0),
      ms: Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3)),
      offset: offsetMinutes(m[8]),
    },
    timeZone,
    value,
  );
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

type Field =
  | 'year'
  | 'year2'
  | 'month'
  | 'monthName'
  | 'day'
  | 'hour'
  | 'hour12'
  | 'minute'
  | 'second'
  | 'ms'
  | 'ampm'
  | 'offset';

const TOKENS: [string, Field, string][] = [
  ['yyyy', 'year', '(\\d{4})'],
  ['yy', 'year2', '(\\d{2})'],
  ['MMM', 'monthName', '([A-Za-z]{3})'],
  ['MM', 'month', '(\\d{2})'],
  ['M', 'month', '(\\d{1,2})'],
  ['dd', 'day', '(\\d{2})'],
  ['d', 'day', '(\\d{1,2})'],
  ['HH', 'hour', '(\\d{2})'],
  ['H', 'hour', '(\\d{1,2})'],
  ['hh', 'hour12', '(\\d{2})'],
  ['h', 'hour12', '(\\d{1,2})'],
  ['mm', 'minute', '(\\d{2})'],
  ['ss', 'second', '(\\d{2})'],
  ['SSS', 'ms', '(\\d{3})'],
  ['a', 'ampm', '([AaPp][Mm])'],
  ['ZZ', 'offset', '(Z|[+-]\\d{2}:\\d{2})'],
  ['Z', 'offset', '([+-]\\d{4})'],
];

export interface CompiledFormat {
  regex: RegExp;
  fields: Field[];
}

const formatCache = new Map<string, CompiledFormat>();

/**
 * Compiles a date pattern (`yyyy-MM-dd HH:mm:ss`, `dd/MM/yyyy hh:mm a`, `MMM d yyyy`, text in '…' is
 * literal) into a matcher. Throws with a message when the pattern lacks a year, month or day.
 */
export function compileFormat(format: string): CompiledFormat {
  const cached = formatCache.get(format);
  if (cached) return cached;
  let source = '^';
  const fields: Field[] = [];
  let i = 0;
  while (i < format.length) {
    if (format[i] === "'") {
      const end = format.indexOf("'", i + 1);
      const literal = format.slice(i + 1, end < 0 ? format.length : end);
      source += literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i = end < 0 ? format.length : end + 1;
      continue;
    }
    const token = TOKENS.find(([t]) => format.startsWith(t, i));
    if (token) {
      source += token[2];
      fields.push(token[1]);
      i += token[0].length;
    } else {
      source += (format[i] as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i += 1;
    }
  }
  const has = (...f: Field[]) => f.some((x) => fields.includes(x));
  if (!has('year', 'year2') || !has('month', 'monthName') || !has('day')) {
    throw new Error('The format needs a year (yyyy), a month (MM or MMM) and a day (dd).');
  }
  const compiled = { regex: new RegExp(`${source}$`), fields };
  formatCache.set(format, compiled);
  return compiled;
}

function parseCustom(value: SourceValue, settings: TimeSettings): TimeResult {
  let compiled: CompiledFormat;
  try {
    compiled = compileFormat(settings.format);
  } catch (err) {
    return fail((err as Error).message);
  }
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : null;
  const m = text === null ? null : compiled.regex.exec(text);
  if (!m) return fail(`${quote(value)} does not match the format ${settings.format}`);
  const f: Fields = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, ms: 0, offset: null };
  let pm: boolean | null = null;
  compiled.fields.forEach((field, k) => {
    const raw = m[k + 1] as string;
    if (field === 'year') f.year = Number(raw);
    else if (field === 'year2') f.year = 2000 + Number(raw) - (Number(raw) >= 70 ? 100 : 0);
    else if (field === 'month') f.month = Number(raw);
    else if (field === 'monthName') f.month = MONTHS.indexOf(raw.toLowerCase()) + 1;
    else if (field === 'day') f.day = Number(raw);
    else if (field === 'hour' || field === 'hour12') f.hour = Number(raw);
    else if (field === 'minute') f.minute = Number(raw);
    else if (field === 'second') f.second = Number(raw);
    else if (field === 'ms') f.ms = Number(raw);
    else if (field === 'ampm') pm = raw.toLowerCase() === 'pm';
    else f.offset = offsetMinutes(raw);
  });
  if (compiled.fields.includes('hour12')) {
    if (f.hour < 1 || f.hour > 12) return fail(`${quote(value)}: a 12-hour clock hour is 1 to 12`);
    if (pm === true && f.hour < 12) f.hour += 12;
    if (pm === false && f.hour === 12) f.hour = 0;
  }
  return toSeconds(f, settings.timeZone, value);
}

const UNITS = {
  unix_s: { name: 'seconds', perSecond: 1 },
  unix_ms: { name: 'milliseconds', perSecond: 1e3 },
  unix_us: { name: 'microseconds', perSecond: 1e6 },
  unix_ns: { name: 'nanoseconds', perSecond: 1e9 },
} as const;

/** Converts one time value in the given form to Unix seconds (UTC). */
export function convertTime(value: SourceValue, settings: TimeSettings): TimeResult {
  if (value === null || value === undefined || value === '') return fail('the time is empty');
  switch (settings.form) {
    case 'unix_s':
    case 'unix_ms':
    case 'unix_us':
    case 'unix_ns': {
      const unit = UNITS[settings.form];
      const n = numberOf(value);
      if (n === null) return fail(`${quote(value)} is not a number of ${unit.name}`);
      return fromSeconds(n / unit.perSecond, value);
    }
    case 'iso8601':
      return parseIso(value, settings.timeZone);
    case 'custom':
      return parseCustom(value, settings);
  }
}

/**
 * The form sample values are most likely written in, or null when none fits most of them: numbers by
 * magnitude (seconds around 10^9, milliseconds 10^12, microseconds 10^15, nanoseconds 10^18), then ISO 8601.
 */
export function detectTimeForm(values: SourceValue[]): TimeForm | null {
  const filled = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (filled.length === 0) return null;
  const most = (ok: (v: SourceValue) => boolean) => filled.filter(ok).length >= Math.ceil(filled.length * 0.8);
  const magnitude = (lo: number, hi: number) => (v: SourceValue) => {
    const n = numberOf(v);
    return n !== null && Math.abs(n) >= lo && Math.abs(n) < hi;
  };
  if (most(magnitude(1e8, 1e11))) return 'unix_s';
  if (most(magnitude(1e11, 1e14))) return 'unix_ms';
  if (most(magnitude(1e14, 1e17))) return 'unix_us';
  if (most(magnitude(1e17, 1e20))) return 'unix_ns';
  if (most((v) => parseIso(v, 'UTC').ok)) return 'iso8601';
  return null;
}

const TIME_NAMES = /^(time|timestamp|ts|date|datetime|created_?at|event_?time|occurred_?at|updated_?at)$/i;

/** The column most likely to hold each row's time: a time-like name first, then any column whose values fit a form. */
export function suggestTimeColumn(columns: string[], sample: (column: string) => SourceValue[]): string | null {
  const fitting = columns.filter((c) => detectTimeForm(sample(c)) !== null);
  return fitting.find((c) => TIME_NAMES.test(c)) ?? fitting[0] ?? null;
}
