import type { timeWindow } from '@svc/contracts';
import type { z } from 'zod';
import { badRequest } from '../../platform/errors';

/**
 * Time filters over Unix-second columns, relative to a given moment (the injectable clock's now, or the
 * journey engine's). Days are 86 400 s, weeks 7 days, months calendar months (UTC).
 */

export type TimeOperator = z.infer<typeof timeWindow>;

export interface Bounds {
  from: number | null;
  to: number | null;
  fromExclusive: boolean;
  toExclusive: boolean;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const INTEGER = /^-?\d{1,12}$/;

/** An instant given as Unix seconds or ISO 8601 text, in Unix seconds. */
export function toSeconds(v: string | number, name: string): number {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw badRequest(`"${name}" needs a time: Unix seconds or an ISO 8601 date.`);
    return Math.floor(v);
  }
  const text = v.trim();
  if (INTEGER.test(text)) return Number(text);
  const ms = Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
  if (!Number.isFinite(ms)) {
    throw badRequest(`"${text.slice(0, 64)}" is not a time for "${name}": use Unix seconds or ISO 8601 (2026-11-01).`);
  }
  return Math.floor(ms / 1000);
}

function shift(at: Date, amount: number, unit: 'day' | 'week' | 'month'): number {
  if (unit === 'month') {
    const d = new Date(at.getTime());
    d.setUTCMonth(d.getUTCMonth() + amount);
    return Math.floor(d.getTime() / 1000);
  }
  const seconds = unit === 'day' ? 86400 : 7 * 86400;
  return Math.floor(at.getTime() / 1000) + amount * seconds;
}

export function timeBounds(op: TimeOperator, at: Date, name: string): Bounds {
  const now = Math.floor(at.getTime() / 1000);
  switch (op.type) {
    case 'TimeWithinPast':
      return { from: shift(at, -op.value, op.unit), to: now, fromExclusive: false, toExclusive: false };
    case 'TimeWithinNext':
      return { from: now, to: shift(at, op.value, op.unit), fromExclusive: false, toExclusive: false };
    case 'TimeRange': {
      const from = toSeconds(op.from, name);
      const to = toSeconds(op.to, name);
      if (from > to) throw badRequest(`The time range of "${name}" ends before it starts; swap "from" and "to".`);
      return { from, to, fromExclusive: false, toExclusive: false };
    }
    case 'TimeBefore':
      return { from: null, to: toSeconds(op.rightValue, name), fromExclusive: false, toExclusive: true };
    case 'TimeAfter':
      return { from: toSeconds(op.rightValue, name), to: null, fromExclusive: true, toExclusive: false };
  }
}
