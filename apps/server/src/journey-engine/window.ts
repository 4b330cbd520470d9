import { defaultWindow, type StatisticsWindow } from '@svc/journey-engine';
import { badRequest } from '../platform/errors';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * One end of a statistics window: a date (`2026-11-01`, the whole day in UTC), an ISO 8601 instant, or
 * Unix seconds. `end` makes a date mean the end of that day.
 */
export function parseInstant(raw: string, name: string, end: boolean): number {
  const text = raw.trim();
  if (DATE_ONLY.test(text)) {
    const start = Date.parse(`${text}T00:00:00Z`);
    if (Number.isFinite(start)) return end ? start + DAY_MS - 1 : start;
  } else if (/^\d{1,12}$/.test(text)) {
    return Number(text) * 1000;
  } else {
    const ms = Date.parse(text);
    if (Number.isFinite(ms) && /^\d{4}-/.test(text)) return ms;
  }
  throw badRequest(
    `"${name}" is "${raw}"; give a date such as 2026-11-01, an ISO 8601 time such as 2026-11-01T09:00:00Z, or Unix seconds.`,
  );
}

/** The window of a statistics request: past 30 days including today unless `from`/`to` say otherwise. */
export function windowOf(now: number, from: string | undefined, to: string | undefined): StatisticsWindow {
  const fallback = defaultWindow(now);
  const window = {
    from: from ? parseInstant(from, 'from', false) : fallback.from,
    to: to ? parseInstant(to, 'to', true) : fallback.to,
  };
  if (window.from > window.to) {
    throw badRequest(
      `The window starts (${new Date(window.from).toISOString()}) after it ends (${new Date(window.to).toISOString()}); swap "from" and "to".`,
    );
  }
  return window;
}
