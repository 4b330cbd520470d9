/**
 * Dates typed as ISO text (2026-03-31, or 2026-03-31 14:30 with a time): one format whatever the browser's
 * locale, instead of the native mm/dd/yyyy pickers. Checked when the field is left, with a message that says
 * how to write it.
 */
export type IsoDateCheck = { ok: true; value: string } | { ok: false; message: string };

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?$/;

export function readIsoDate(text: string, withTime: boolean): IsoDateCheck {
  const how = withTime
    ? 'Write the date as YYYY-MM-DD, or YYYY-MM-DD HH:MM with a time, e.g. 2026-03-31 14:30.'
    : 'Write the date as YYYY-MM-DD, e.g. 2026-03-31.';
  const match = PATTERN.exec(text.trim());
  if (!match || (!withTime && match[4] !== undefined)) return { ok: false, message: how };
  const [year, month, day, hour = 0, minute = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const date = new Date(Date.UTC(year as number, (month as number) - 1, day as number));
  if (date.getUTCMonth() !== (month as number) - 1 || date.getUTCDate() !== day) {
    return { ok: false, message: `There is no ${match[1]}-${match[2]}-${match[3]}. ${how}` };
  }
  if ((hour as number) > 23 || (minute as number) > 59) {
    return { ok: false, message: `${match[4]}:${match[5]} is not a time of day. ${how}` };
  }
  const dayText = `${match[1]}-${match[2]}-${match[3]}`;
  return { ok: true, value: withTime ? `${dayText} ${match[4] ?? '00'}:${match[5] ?? '00'}` : dayText };
}
