/**
 * Time zones for the query functions: IANA names (through Intl), fixed offsets (`+09:00`, `-0500`) and
 * the abbreviations TD users write (`JST`, `PST`…). Offsets are minutes east of UTC.
 */

export interface Zone {
  /** The name as the caller wrote it, upper-cased for abbreviations. */
  name: string;
  offsetAt(utcMs: number): number;
  /** The zone's short name at an instant where one exists (`PDT`, `JST`), else null. */
  abbreviationAt(utcMs: number): string | null;
}

/** Abbreviations TD users write, and the IANA zone each stands for. */
export const ABBREVIATIONS: Record<string, string> = {
  UTC: 'UTC',
  GMT: 'UTC',
  Z: 'UTC',
  JST: 'Asia/Tokyo',
  KST: 'Asia/Seoul',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  MST: 'America/Denver',
  MDT: 'America/Denver',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  AKST: 'America/Anchorage',
  HST: 'Pacific/Honolulu',
  BST: 'Europe/London',
  CET: 'Europe/Paris',
  CEST: 'Europe/Paris',
  EET: 'Europe/Athens',
  IST: 'Asia/Kolkata',
  SGT: 'Asia/Singapore',
  HKT: 'Asia/Hong_Kong',
  AEST: 'Australia/Sydney',
  AEDT: 'Australia/Sydney',
};

/** A fixed offset: `+09:00`, `-0500`, `UTC+9`. */
export const FIXED = /^(?:UTC|GMT)?([+-])(\d{1,2}):?(\d{2})?$/i;
const zones = new Map<string, Zone>();
// Offsets only change on quarter-hour boundaries of UTC in modern zone data, so a quarter-hour cache is exact.
const QUARTER_HOUR = 15 * 60 * 1000;

function fixedZone(name: string, minutes: number): Zone {
  return { name, offsetAt: () => minutes, abbreviationAt: () => (name === 'UTC' ? 'UTC' : null) };
}

function intlZone(name: string, iana: string): Zone {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: iana,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    throw new Error(
      `Unknown time zone "${name}": use an IANA name such as "Asia/Tokyo", an offset such as "+09:00" or UTC.`,
    );
  }
  const cache = new Map<number, number>();
  const short = new Intl.DateTimeFormat('en-US', { timeZone: iana, timeZoneName: 'short' });
  const names = new Map<number, string | null>();
  return {
    name,
    abbreviationAt(utcMs: number): string | null {
      const bucket = Math.floor(utcMs / QUARTER_HOUR);
      let label = names.get(bucket);
      if (label === undefined) {
        const part = short.formatToParts(new Date(bucket * QUARTER_HOUR)).find((p) => p.type === 'timeZoneName');
        // Intl knows "PDT" but writes Tokyo as "GMT+9"; the abbreviation the caller used is better there.
        label = part && /^[A-Z]{2,5}$/.test(part.value) ? part.value : /^[A-Z]{2,5}$/.test(name) ? name : null;
        if (names.size > 50_000) names.clear();
        names.set(bucket, label);
      }
      return label;
    },
    offsetAt(utcMs: number): number {
      const bucket = Math.floor(utcMs / QUARTER_HOUR);
      const hit = cache.get(bucket);
      if (hit !== undefined) return hit;
      const at = bucket * QUARTER_HOUR;
      const parts: Record<string, number> = {};
      for (const p of format.formatToParts(new Date(at))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
      const wall = Date.UTC(
        parts.year as number,
        (parts.month as number) - 1,
        parts.day as number,
        parts.hour as number,
        parts.minute as number,
        parts.second as number,
      );
      const minutes = Math.round((wall - at) / 60000);
      if (cache.size > 50_000) cache.clear();
      cache.set(bucket, minutes);
      return minutes;
    },
  };
}

/** The zone of a name; null or empty means UTC. An unknown name throws an error naming it. */
export function zoneOf(name: unknown): Zone {
  const key = name === null || name === undefined || name === '' ? 'UTC' : String(name).trim();
  const cached = zones.get(key);
  if (cached) return cached;
  let zone: Zone;
  const fixed = FIXED.exec(key);
  const upper = key.toUpperCase();
  if (fixed) {
    const minutes = Number(fixed[2]) * 60 + Number(fixed[3] ?? 0);
    zone = fixedZone(key, fixed[1] === '-' ? -minutes : minutes);
  } else if (upper === 'UTC' || upper === 'GMT' || upper === 'Z') {
    zone = fixedZone('UTC', 0);
  } else if (ABBREVIATIONS[upper]) {
    zone = intlZone(upper, ABBREVIATIONS[upper] as string);
  } else {
    zone = intlZone(key, key);
  }
  zones.set(key, zone);
  return zone;
}

/** Wall-clock fields of an instant in a zone. */
export interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  offset: number;
}

export function wallOf(utcMs: number, zone: Zone): Wall {
  const offset = zone.offsetAt(utcMs);
  const d = new Date(utcMs + offset * 60000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    ms: d.getUTCMilliseconds(),
    weekday: d.getUTCDay(),
    offset,
  };
}

/** The instant of a wall-clock time in a zone (fields may overflow, as Date.UTC allows). */
export function instantOf(zone: Zone, y: number, mo: number, d = 1, h = 0, mi = 0, s = 0, ms = 0): number {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const first = zone.offsetAt(wall);
  const guess = wall - first * 60000;
  const second = zone.offsetAt(guess);
  return second === first ? guess : wall - second * 60000;
}

/** `+0900` style offset text. */
export function offsetText(minutes: number, colon = false): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${sign}${hh}${colon ? ':' : ''}${mm}`;
}
