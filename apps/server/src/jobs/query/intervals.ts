import { parseTime } from './timeFormats';
import { instantOf, wallOf, type Zone } from './timeZones';

/**
 * Calendar units of TD_INTERVAL, TD_TIME_ADD and the truncation functions: s, m, h, d, w (weeks start
 * on Monday), M, q, y. Arithmetic and truncation happen on the wall clock of a zone.
 */
export type Unit = 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'q' | 'y';

const UNIT_NAMES: Record<string, Unit> = {
  second: 's',
  minute: 'm',
  hour: 'h',
  day: 'd',
  week: 'w',
  month: 'M',
  quarter: 'q',
  year: 'y',
};

/** Unit of a Presto `date_trunc` name (`day`, `month`…). */
export function unitOfName(name: string): Unit {
  const unit = UNIT_NAMES[name.trim().toLowerCase()];
  if (!unit) throw new Error(`Unknown unit "${name}": use second, minute, hour, day, week, month, quarter or year.`);
  return unit;
}

/** Start of the unit containing `ms`, on the zone's wall clock. */
export function truncate(ms: number, unit: Unit, zone: Zone): number {
  const w = wallOf(ms, zone);
  switch (unit) {
    case 's':
      return instantOf(zone, w.year, w.month, w.day, w.hour, w.minute, w.second);
    case 'm':
      return instantOf(zone, w.year, w.month, w.day, w.hour, w.minute);
    case 'h':
      return instantOf(zone, w.year, w.month, w.day, w.hour);
    case 'd':
      return instantOf(zone, w.year, w.month, w.day);
    case 'w':
      return instantOf(zone, w.year, w.month, w.day - ((w.weekday + 6) % 7));
    case 'M':
      return instantOf(zone, w.year, w.month);
    case 'q':
      return instantOf(zone, w.year, w.month - ((w.month - 1) % 3));
    case 'y':
      return instantOf(zone, w.year, 1);
  }
}

/** `ms` moved by `n` units on the zone's wall clock (months keep the day where the month allows). */
export function addUnits(ms: number, n: number, unit: Unit, zone: Zone): number {
  const fixed: Partial<Record<Unit, number>> = { s: 1000, m: 60_000, h: 3_600_000 };
  const step = fixed[unit];
  if (step !== undefined) return ms + n * step;
  const w = wallOf(ms, zone);
  if (unit === 'd' || unit === 'w') {
    return instantOf(zone, w.year, w.month, w.day + n * (unit === 'w' ? 7 : 1), w.hour, w.minute, w.second, w.ms);
  }
  const months = unit === 'M' ? n : unit === 'q' ? n * 3 : n * 12;
  const lastDay = new Date(Date.UTC(w.year, w.month - 1 + months + 1, 0)).getUTCDate();
  return instantOf(zone, w.year, w.month + months, Math.min(w.day, lastDay), w.hour, w.minute, w.second, w.ms);
}

const DURATION = /^([+-]?\d+)([smhdwMqy])$/;

/** Parses `-7d`, `1h`, `0M`: a signed count of a unit. */
export function parseDuration(text: string): { n: number; unit: Unit } | null {
  const m = DURATION.exec(text.trim());
  return m ? { n: Number(m[1]), unit: m[2] as Unit } : null;
}

/**
 * The half-open range [start, end) in milliseconds of a TD_INTERVAL string `<duration>[/<offset>]`.
 * Without an offset the reference is the start of the current unit: `-1d` is yesterday, `1d` today,
 * `-7d` the seven days before today. With an offset (`now`, a date or date-time, or a duration counted
 * from the start of its own current unit such as `-1d`) the range ends at that instant for durations of
 * zero or less (`-7d/now`, `0M/now`), and covers the units from it for positive ones.
 */
export function intervalRange(spec: string, nowMs: number, zone: Zone): [number, number] {
  const [durationText, offsetText, extra] = spec.split('/');
  const duration = durationText === undefined ? null : parseDuration(durationText);
  if (!duration || extra !== undefined) {
    throw new Error(
      `TD_INTERVAL: "${spec}" is not an interval: write <n><unit>[/<offset>], e.g. '-1d', '-7d/now', '1M/2024-01-01' (units s m h d w M q y).`,
    );
  }
  const { n, unit } = duration;
  if (offsetText === undefined || offsetText === '') {
    const current = truncate(nowMs, unit, zone);
    return n < 0
      ? [addUnits(current, n, unit, zone), current]
      : [current, addUnits(current, Math.max(n, 1), unit, zone)];
  }
  let reference: number;
  const relative = parseDuration(offsetText);
  if (offsetText.trim().toLowerCase() === 'now') reference = nowMs;
  else if (relative) reference = addUnits(truncate(nowMs, relative.unit, zone), relative.n, relative.unit, zone);
  else {
    const at = parseTime(offsetText, zone);
    if (at === null) throw new Error(`TD_INTERVAL: the offset "${offsetText}" is not now, a duration or a date.`);
    reference = at;
  }
  const base = truncate(reference, unit, zone);
  return n > 0 ? [base, addUnits(base, n, unit, zone)] : [addUnits(base, n, unit, zone), reference];
}
