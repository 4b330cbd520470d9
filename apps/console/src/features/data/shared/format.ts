/** Formatting of the data plane's wire values for people: sizes, counts, times, schemas. */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** "0 B", "812 B", "1.5 KB", "23 MB": 1024-based, one decimal below 10. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

const counts = new Intl.NumberFormat('en-US');

/** "1,234,567"; a dash for a figure not known yet. */
export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : counts.format(n);
}

/** Seconds as "0.4 s", "12 s", "3 min 05 s", "2 h 04 min". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, seconds);
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.floor(s)} s`;
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  return `${m} min ${String(rest).padStart(2, '0')} s`;
}

/** Whole seconds as the server counts them: 0 reads "under 1 s". */
export function formatSeconds(seconds: number | null | undefined): string {
  return seconds === 0 ? 'under 1 s' : formatDuration(seconds);
}

/**
 * The /v3 time forms (`2024-01-01 09:30:00 UTC`, `2024-01-01 09:30:00 +0900`) as ISO 8601, for
 * `<Timestamp>`; "" (a job that has not started) and null give null.
 */
export function v3TimeToIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) (UTC|[+-]\d{4})$/.exec(value);
  if (!m) return null;
  const zone = m[3] === 'UTC' ? 'Z' : `${m[3]?.slice(0, 3)}:${m[3]?.slice(3)}`;
  return `${m[1]}T${m[2]}${zone}`;
}

/** Unix seconds (the bulk load jobs' form) as ISO 8601. */
export function unixToIso(seconds: number | null | undefined): string | null {
  return seconds === null || seconds === undefined ? null : new Date(seconds * 1000).toISOString();
}

/** Milliseconds since the epoch of a /v3 time, or null. */
export function v3TimeToMs(value: string | null | undefined): number | null {
  const iso = v3TimeToIso(value);
  return iso === null ? null : Date.parse(iso);
}

export interface Column {
  name: string;
  type: string;
  alias?: string;
}

/**
 * A table's `schema` (a JSON string of `[name, type(, alias)]`) as columns, with `time` first as every
 * table has it. A schema that does not parse yields only `time`.
 */
export function tableColumns(schema: string): Column[] {
  const columns: Column[] = [{ name: 'time', type: 'long' }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(schema);
  } catch {
    return columns;
  }
  if (!Array.isArray(parsed)) return columns;
  for (const entry of parsed) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') continue;
    if (entry[0] === 'time') continue;
    columns.push(
      typeof entry[2] === 'string'
        ? { name: entry[0], type: entry[1], alias: entry[2] }
        : { name: entry[0], type: entry[1] },
    );
  }
  return columns;
}

/** A job's `hive_result_schema` (JSON `[name, type]` pairs) as columns; null or bad JSON gives none. */
export function resultColumns(schema: string | null): Column[] {
  if (!schema) return [];
  try {
    const parsed: unknown = JSON.parse(schema);
    if (!Array.isArray(parsed)) return [];
    return parsed.map((entry, i) =>
      Array.isArray(entry)
        ? { name: String(entry[0] ?? `_col${i}`), type: String(entry[1] ?? '') }
        : { name: `_col${i}`, type: '' },
    );
  } catch {
    return [];
  }
}
