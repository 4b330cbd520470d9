/** Converting wall-clock times of an IANA time zone to Unix time, with the platform's Intl data. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

// Offsets change at most a few times a year: cache them per zone and hour.
const offsets = new Map<string, number>();

/** The zone's offset from UTC in milliseconds at the instant `ms`. */
export function zoneOffsetMs(timeZone: string, ms: number): number {
  if (timeZone === 'UTC') return 0;
  const hour = Math.floor(ms / 3_600_000);
  const key = `${timeZone}|${hour}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(hour * 3_600_000))) parts[p.type] = p.value;
  let year = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
  // Date.UTC reads years 0-99 as 1900-1999: set the year itself.
  const date = new Date(0);
  date.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  date.setUTCHours(Number(parts.hour), Number(parts.minute), 0, 0);
  const wall = date.getTime();
  const offset = wall - hour * 3_600_000;
  if (offsets.size > 100_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/**
 * The instant (ms) of a wall-clock time in a zone. In a gap (clocks jump forward) the time is read with
 * the offset from before the jump; in an overlap (clocks go back) the earlier instant is taken.
 */
export function zonedToUtcMs(wallMs: number, timeZone: string): number {
  if (timeZone === 'UTC') return wallMs;
  const first = zoneOffsetMs(timeZone, wallMs);
  const guess = wallMs - first;
  const second = zoneOffsetMs(timeZone, guess);
  if (second === first) {
    // In an overlap, the offset an hour earlier may also fit: prefer the earlier instant.
    const before = zoneOffsetMs(timeZone, guess - 3_600_000);
    if (before !== first && zoneOffsetMs(timeZone, wallMs - before) === before) return wallMs - before;
    return guess;
  }
  const retry = wallMs - second;
  if (zoneOffsetMs(timeZone, retry) === second) return retry;
  // A gap: read the wall time with the offset in force before the jump (02:30 becomes 03:30).
  return wallMs - zoneOffsetMs(timeZone, Math.min(guess, retry) - 3 * 3_600_000);
}
