const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

// Memos of the formatters by locale (and zone): building an Intl formatter takes far longer than formatting with
// it, and a table of times builds the same few hundreds of times (a page of 50 journey profiles spent ~65 ms).
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const exactFormats = new Map<string, Intl.DateTimeFormat>();

function memo<T>(formats: Map<string, T>, key: string, make: () => T): T {
  let format = formats.get(key);
  if (format === undefined) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

/** "3 minutes ago", "yesterday", "just now": rounded down to the largest unit that fits. */
export function formatRelative(date: Date, now: Date, locale = 'en'): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  const format = memo(relativeFormats, locale, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
  for (const [unit, size] of UNITS) {
    if (abs >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(Math.trunc(seconds / 60) || Math.sign(seconds), 'minute');
}

/** The exact moment in the viewer's time zone, e.g. "12 Mar 2025, 14:05:09 CET". */
export function formatExact(date: Date, locale = 'en-GB', timeZone?: string): string {
  const format = memo(
    exactFormats,
    `${locale} ${timeZone ?? ''}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        timeZoneName: 'short',
        ...(timeZone ? { timeZone } : {}),
      }),
  );
  return format.format(date);
}
