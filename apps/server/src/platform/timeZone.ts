import { badRequest } from './errors';

/**
 * The one check of a time zone name every feature uses (schedules, activations, bulk loads): a valid IANA name
 * in its canonical spelling (`asia/tokyo` → `Asia/Tokyo`), or null when it is not one Intl knows.
 */
export function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** An IANA time zone name such as `UTC` or `Asia/Tokyo`. */
export function checkTimezone(tz: string): string {
  if (canonicalTimeZone(tz) === null) {
    throw badRequest(
      `"timezone" must be an IANA time zone name such as "UTC" or "Asia/Tokyo", not "${tz.slice(0, 60)}".`,
    );
  }
  return tz;
}
