/** Timestamp forms of the wire (DESIGN §5, wire-compat §1.6). All inputs are UTC instants. */

const pad = (n: number) => String(n).padStart(2, '0');

/** `2024-01-01 00:00:00 UTC`, the /v3 object form. */
export function v3Time(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())} UTC`;
}

/** `2024-01-01 00:00:00 +0000`, the numeric-offset form the database list shows. */
export function v3OffsetTime(d: Date): string {
  return v3Time(d).replace(/ UTC$/, ' +0000');
}

/** ISO 8601 UTC with milliseconds, e.g. `2020-12-31T11:22:33.000Z`. */
export function isoTime(d: Date): string {
  return d.toISOString();
}

/** ISO 8601 UTC without milliseconds, e.g. `2016-06-09T01:34:59Z` (user objects). */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function fromMillis(ms: number | null | undefined): Date | null {
  return ms == null ? null : new Date(ms);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date or time given by a person (`2026-11-01`, `2026-11-01T09:00`, `2026-11-01T09:00:00+02:00`)
 * as Unix ms, or null when it is not one. A date alone, or a time without a zone, is UTC.
 */
export function parseIsoInstant(value: string): number | null {
  const text = value.trim();
  if (!ISO_INSTANT.test(text)) return null;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) || !text.includes(':') ? text : `${text}Z`;
  const ms = Date.parse(zoned.replace(' ', 'T'));
  return Number.isNaN(ms) ? null : ms;
}
