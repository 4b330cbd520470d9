/**
 * The schedules of activations and parent segments: `hourly` at minute MM of every hour (scheduleOption
 * `HH:MM`, the hour ignored), `daily` at HH:MM, both in the object's time zone; anything else (`none`) means
 * "at every tick" for deliveries and "never" for rebuilds. Work waiting since some instant is due at the
 * first slot at or after it.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

interface Local {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function localParts(at: number, timeZone: string): Local {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(at))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
  };
}

/** The UTC instant of a wall-clock time in the zone (the later one when a clock change repeats it). */
function zonedInstant(local: Local, timeZone: string): number {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const seen = localParts(guess, timeZone);
    const seenUtc = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute);
    guess += asUtc - seenUtc;
  }
  return guess;
}

function option(scheduleOption: string | null): { hour: number; minute: number } {
  const m = /^(\d{2}):(\d{2})$/.exec(scheduleOption ?? '');
  return m ? { hour: Number(m[1]), minute: Number(m[2]) } : { hour: 0, minute: 0 };
}

/** The latest slot at or before `at`; `at` itself for `none`. */
export function lastSlot(scheduleType: string, scheduleOption: string | null, timeZone: string, at: number): number {
  if (scheduleType !== 'hourly' && scheduleType !== 'daily') return at;
  const { hour, minute } = option(scheduleOption);
  const local = localParts(at, timeZone);
  if (scheduleType === 'hourly') {
    const slot = zonedInstant({ ...local, minute }, timeZone);
    return slot <= at ? slot : slot - HOUR_MS;
  }
  const slot = zonedInstant({ ...local, hour, minute }, timeZone);
  if (slot <= at) return slot;
  const yesterday = localParts(at - DAY_MS, timeZone);
  return zonedInstant({ ...yesterday, hour, minute }, timeZone);
}

export function isTimedSchedule(scheduleType: string): scheduleType is 'hourly' | 'daily' {
  return scheduleType === 'hourly' || scheduleType === 'daily';
}

/** Is work waiting since `since` due at `at`? Always, for a schedule that is not timed. */
export function scheduleDue(
  scheduleType: string,
  scheduleOption: string | null,
  timeZone: string,
  since: number,
  at: number,
): boolean {
  if (!isTimedSchedule(scheduleType)) return true;
  return lastSlot(scheduleType, scheduleOption, timeZone, at) >= since;
}
