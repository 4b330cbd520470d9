import { instantOf, offsetText, type Wall, wallOf, type Zone, zoneOf } from './timeZones';

/**
 * Reading and writing times the way Presto and TD functions do. A Presto `timestamp` has no SQLite
 * type, so it travels as text: `2024-01-01 09:30:00.000` (UTC) or with a zone after a space
 * (`2024-01-01 18:30:00.000 Asia/Tokyo`). Unix times are seconds.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Timestamp text: date, optional time with fraction, optional zone (group 8). */
export const TIMESTAMP =
  /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{1,2}(?::?\d{2})?|[A-Za-z][A-Za-z0-9_/+-]*)?\s*$/;
const UNIX_SECONDS = /^\s*-?\d{1,12}\s*$/;

/**
 * Milliseconds of a time value: a number is Unix seconds; text is a date or date-time with an
 * optional zone (`Z`, `+09:00`, `JST`, `Asia/Tokyo`), read in `zone` when it has none. Null when the
 * text is not a time.
 */
export function parseTime(value: unknown, zone: Zone = zoneOf('UTC')): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value * 1000 : null;
  if (typeof value === 'bigint') return Number(value) * 1000;
  if (typeof value !== 'string') return null;
  if (UNIX_SECONDS.test(value)) return Number(value) * 1000;
  const m = TIMESTAMP.exec(value);
  if (!m) return null;
  const field = (i: number) => Number(m[i] ?? 0);
  const [y, mo, d, h, mi, s] = [field(1), field(2), field(3), field(4), field(5), field(6)];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return null;
  const ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  let z = zone;
  if (m[8]) {
    try {
      z = zoneOf(m[8]);
    } catch {
      return null;
    }
  }
  return instantOf(z, y, mo, d, h, mi, s, ms);
}

/** The wire text of a timestamp: UTC without a zone, otherwise the wall time in the zone and its name. */
export function timestampText(ms: number, zone?: Zone): string {
  const w = wallOf(ms, zone ?? zoneOf('UTC'));
  const text = `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}.${pad(w.ms, 3)}`;
  return zone && zone.name !== 'UTC' ? `${text} ${zone.name}` : text;
}

/** The zone written after a timestamp's time, if any (`… Asia/Tokyo`), for functions that keep it. */
export function zoneOfTimestamp(value: unknown): Zone {
  if (typeof value === 'string') {
    const m = TIMESTAMP.exec(value);
    if (m?.[8] && m[8] !== 'Z') {
      try {
        return zoneOf(m[8]);
      } catch {
        return zoneOf('UTC');
      }
    }
  }
  return zoneOf('UTC');
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function zoneLabel(zone: Zone, w: Wall, utcMs: number): string {
  return zone.abbreviationAt(utcMs) ?? `GMT${offsetText(w.offset, true)}`;
}

function dayOfYear(w: Wall): number {
  return Math.round((Date.UTC(w.year, w.month - 1, w.day) - Date.UTC(w.year, 0, 1)) / 86400000) + 1;
}

type Piece = (w: Wall, zone: Zone, utcMs: number) => string;
const javaCache = new Map<string, Piece[]>();

/** A Java pattern split into literal text and runs of one pattern letter (`yyyy` is y × 4). */
export type JavaPart = { text: string } | { letter: string; n: number };

/** Splits a Java `SimpleDateFormat` pattern: quoted text ('' is a quote), other non-letters, letter runs. */
export function javaPatternParts(pattern: string): JavaPart[] {
  const parts: JavaPart[] = [];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    if (ch === "'") {
      const end = pattern.indexOf("'", i + 1);
      const text = end < 0 ? pattern.slice(i + 1) : pattern.slice(i + 1, end);
      parts.push({ text: text === '' ? "'" : text });
      i = end < 0 ? pattern.length : end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(ch)) {
      parts.push({ text: ch });
      i++;
      continue;
    }
    let n = 1;
    while (pattern[i + n] === ch) n++;
    i += n;
    parts.push({ letter: ch, n });
  }
  return parts;
}

/** Compiles a Java `SimpleDateFormat` pattern (TD_TIME_FORMAT, format_datetime). */
function compileJava(pattern: string): Piece[] {
  const cached = javaCache.get(pattern);
  if (cached) return cached;
  const pieces = javaPatternParts(pattern).map((part): Piece => {
    if ('text' in part) return () => part.text;
    return javaField(part.letter, part.n);
  });
  if (javaCache.size > 1000) javaCache.clear();
  javaCache.set(pattern, pieces);
  return pieces;
}

function javaField(ch: string, n: number): Piece {
  switch (ch) {
    case 'y':
    case 'Y':
    case 'u':
      if (ch === 'u' && n === 1) return (w) => String(w.weekday === 0 ? 7 : w.weekday);
      return n === 2 ? (w) => pad(w.year % 100) : (w) => pad(w.year, n);
    case 'M':
    case 'L':
      if (n >= 4) return (w) => MONTHS[w.month - 1] as string;
      if (n === 3) return (w) => (MONTHS[w.month - 1] as string).slice(0, 3);
      return (w) => pad(w.month, n);
    case 'd':
      return (w) => pad(w.day, n);
    case 'D':
      return (w) => pad(dayOfYear(w), n);
    case 'E':
      return n >= 4 ? (w) => DAYS[w.weekday] as string : (w) => (DAYS[w.weekday] as string).slice(0, 3);
    case 'a':
      return (w) => (w.hour < 12 ? 'AM' : 'PM');
    case 'H':
      return (w) => pad(w.hour, n);
    case 'k':
      return (w) => pad(w.hour === 0 ? 24 : w.hour, n);
    case 'K':
      return (w) => pad(w.hour % 12, n);
    case 'h':
      return (w) => pad(w.hour % 12 === 0 ? 12 : w.hour % 12, n);
    case 'm':
      return (w) => pad(w.minute, n);
    case 's':
      return (w) => pad(w.second, n);
    case 'S':
      return (w) => pad(w.ms, 3).padEnd(n, '0').slice(0, n);
    case 'z':
      return (w, zone, utcMs) => zoneLabel(zone, w, utcMs);
    case 'Z':
      return (w) => offsetText(w.offset);
    case 'X':
      return (w) => (w.offset === 0 ? 'Z' : n === 1 ? offsetText(w.offset).slice(0, 3) : offsetText(w.offset, n >= 3));
    default:
      throw new Error(`The date pattern letter "${ch}" is not supported.`);
  }
}

/** Formats an instant with a Java date pattern in a zone. */
export function formatJava(ms: number, pattern: string, zone: Zone): string {
  const w = wallOf(ms, zone);
  let out = '';
  for (const piece of compileJava(pattern)) out += piece(w, zone, ms);
  return out;
}

/** Formats an instant with MySQL `%` specifiers (Presto `date_format`). */
export function formatMysql(ms: number, pattern: string, zone: Zone): string {
  const w = wallOf(ms, zone);
  const h12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  return pattern.replace(/%(.)/g, (_, c: string) => {
    switch (c) {
      case 'Y':
        return pad(w.year, 4);
      case 'y':
        return pad(w.year % 100);
      case 'm':
        return pad(w.month);
      case 'c':
        return String(w.month);
      case 'M':
        return MONTHS[w.month - 1] as string;
      case 'b':
        return (MONTHS[w.month - 1] as string).slice(0, 3);
      case 'd':
        return pad(w.day);
      case 'e':
        return String(w.day);
      case 'j':
        return pad(dayOfYear(w), 3);
      case 'H':
        return pad(w.hour);
      case 'k':
        return String(w.hour);
      case 'h':
      case 'I':
        return pad(h12);
      case 'l':
        return String(h12);
      case 'i':
        return pad(w.minute);
      case 's':
      case 'S':
        return pad(w.second);
      case 'f':
        return `${pad(w.ms, 3)}000`;
      case 'p':
        return w.hour < 12 ? 'AM' : 'PM';
      case 'T':
        return `${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
      case 'r':
        return `${pad(h12)}:${pad(w.minute)}:${pad(w.second)} ${w.hour < 12 ? 'AM' : 'PM'}`;
      case 'W':
        return DAYS[w.weekday] as string;
      case 'a':
        return (DAYS[w.weekday] as string).slice(0, 3);
      case 'w':
        return String(w.weekday);
      default:
        return c;
    }
  });
}

const mysqlParsers = new Map<string, { regex: RegExp; fields: string[] }>();

/** The regular expression (anchored) and the specifier of each group that read MySQL `%` text. */
export function mysqlParser(pattern: string): { regex: RegExp; fields: string[] } {
  let parser = mysqlParsers.get(pattern);
  if (!parser) {
    const fields: string[] = [];
    const source = pattern.replace(/%(.)|([.*+?^${}()|[\]\\])/g, (_, c: string | undefined, special) => {
      if (special) return `\\${special}`;
      const group: Record<string, string> = {
        Y: '(\\d{4})',
        y: '(\\d{2})',
        m: '(\\d{1,2})',
        c: '(\\d{1,2})',
        d: '(\\d{1,2})',
        e: '(\\d{1,2})',
        H: '(\\d{1,2})',
        k: '(\\d{1,2})',
        h: '(\\d{1,2})',
        I: '(\\d{1,2})',
        l: '(\\d{1,2})',
        i: '(\\d{1,2})',
        s: '(\\d{1,2})',
        S: '(\\d{1,2})',
        f: '(\\d{1,9})',
        p: '(AM|PM|am|pm)',
        b: '([A-Za-z]{3})',
        M: '([A-Za-z]+)',
      };
      const g = group[c as string];
      if (!g) return c === '%' ? '%' : (c as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      fields.push(c as string);
      return g;
    });
    parser = { regex: new RegExp(`^${source}$`), fields };
    mysqlParsers.set(pattern, parser);
  }
  return parser;
}

/** Parses text with MySQL `%` specifiers (Presto `date_parse`), in UTC. Null when it does not match. */
export function parseMysql(text: string, pattern: string): number | null {
  const parser = mysqlParser(pattern);
  const m = parser.regex.exec(text.trim());
  if (!m) return null;
  let [year, month, day, hour, minute, second, ms] = [1970, 1, 1, 0, 0, 0, 0];
  let pm: boolean | null = null;
  parser.fields.forEach((f, i) => {
    const v = m[i + 1] as string;
    if (f === 'Y') year = Number(v);
    else if (f === 'y') year = 2000 + Number(v);
    else if (f === 'm' || f === 'c') month = Number(v);
    else if (f === 'b' || f === 'M') month = MONTHS.findIndex((n) => n.toLowerCase().startsWith(v.toLowerCase())) + 1;
    else if (f === 'd' || f === 'e') day = Number(v);
    else if ('HkhIl'.includes(f)) hour = Number(v);
    else if (f === 'i') minute = Number(v);
    else if (f === 's' || f === 'S') second = Number(v);
    else if (f === 'f') ms = Math.floor(Number(`0.${v}`) * 1000);
    else if (f === 'p') pm = v.toUpperCase() === 'PM';
  });
  if (pm !== null) hour = (hour % 12) + (pm ? 12 : 0);
  if (month < 1) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}
