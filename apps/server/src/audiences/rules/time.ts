import type { timeWindow } from '@svc/contracts';
import type { z } from 'zod';
import { badRequest } from '../../platform/errors';

/**
 * Time filters over Unix-second columns, relative to a given moment (the injectable clock's now, or the
 * journey engine's). Days are 86 400 s, weeks 7 days, months calendar months (UTC) whose day is clamped to
 * the target month's last day (past 1 month on Mar 31 starts Feb 28 or 29, not Mar 3).
 */

export type TimeOperator = z.infer<typeof timeWindow>;

export interface Bounds {
  from: number | null;
  to: number | null;
  fromExclusive: boolean;
  toExclusive: boolean;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const INTEGER = /^-?\d{1,12}$/;
const DAY = 86400;

/** An instant in Unix seconds; `day` is set for a date-only value (its UTC midnight), which means a whole day. */
interface Instant {
  seconds: number;
  day: boolean;
}

function parseTime(v: string | number, name: string): Instant {
  const refuse = (text: string) =>
    badRequest(`"${text.slice(0, 64)}" is not a time for "${name}": use Unix seconds or ISO 8601 (2026-11-01).`);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw badRequest(`"${name}" needs a time: Unix seconds or an ISO 8601 date.`);
    return { seconds: Math.floor(v), day: false };
  }
  const text = v.trim();
  if (INTEGER.test(text)) return { seconds: Number(text), day: false };
  const date = DATE_ONLY.exec(text);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const ms = Date.UTC(y, m - 1, d);
    // Date.UTC rolls 2026-02-30 over into March; a day that does not exist is refused instead.
    if (new Date(ms).getUTCDate() !== d || m < 1 || m > 12) throw refuse(text);
    return { seconds: ms / 1000, day: true };
  }
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw refuse(text);
  return { seconds: Math.floor(ms / 1000), day: false };
}

/** An instant given as Unix seconds or ISO 8601 text, in Unix seconds (a date-only value is its UTC midnight). */
export function toSeconds(v: string | number, name: string): number {
  return parseTime(v, name).seconds;
}

/**
 * The span a value stands for on a timestamp column: a date-only value is its whole UTC day
 * (`from` ≤ t < `to`), anything else one instant (`to` null).
 */
export function timeSpan(v: string | number, name: string): { from: number; to: number | null } {
  const t = parseTime(v, name);
  return { from: t.seconds, to: t.day ? t.seconds + DAY : null };
}

/** The end of a value as an upper bound: the next midnight (exclusive) for a date-only value, else the instant. */
function endOf(t: Instant): { at: number; exclusive: boolean } {
  return t.day ? { at: t.seconds + DAY, exclusive: true } : { at: t.seconds, exclusive: false };
}

/** `at` moved by whole units; a month keeps the day of the month, clamped to the target month's last day. */
export function shift(at: Date, amount: number, unit: 'day' | 'week' | 'month'): number {
  if (unit === 'month') {
    const y = at.getUTCFullYear();
    const m = at.getUTCMonth() + amount;
    const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    const day = Math.min(at.getUTCDate(), last);
    const ms = Date.UTC(y, m, day, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds());
    return Math.floor(ms / 1000);
  }
  const seconds = unit === 'day' ? DAY : 7 * DAY;
  return Math.floor(at.getTime() / 1000) + amount * seconds;
}

/**
 * Date-only values (2026-01-31) mean whole UTC days: a range includes all of its last day, TimeAfter starts
 * after the day ends and TimeBefore ends before it starts. Full timestamps and Unix seconds are exact.
 */
export function timeBounds(op: TimeOperator, at: Date, name: string): Bounds {
  const now = Math.floor(at.getTime() / 1000);
  switch (op.type) {
    case 'TimeWithinPast':
      return { from: shift(at, -op.value, op.unit), to: now, fromExclusive: false, toExclusive: false };
    case 'TimeWithinNext':
      return { from: now, to: shift(at, op.value, op.unit), fromExclusive: false, toExclusive: false };
    case 'TimeRange': {
      const from = parseTime(op.from, name).seconds;
      const to = endOf(parseTime(op.to, name));
      if (from > to.at || (from === to.at && to.exclusive)) {
        throw badRequest(`The time range of "${name}" ends before it starts; swap "from" and "to".`);
      }
      return { from, to: to.at, fromExclusive: false, toExclusive: to.exclusive };
    }
    case 'TimeBefore':
      return { from: null, to: toSeconds(op.rightValue, name), fromExclusive: false, toExclusive: true };
    case 'TimeAfter': {
      // After a date-only value means from the next midnight on; after an instant, strictly later.
      const end = endOf(parseTime(op.rightValue, name));
      return { from: end.at, to: null, fromExclusive: !end.exclusive, toExclusive: false };
    }
  }
}
