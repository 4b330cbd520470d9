import { z } from 'zod';
import { checkSchemaColumnName } from '../data';
import { ApiError, badRequest } from '../platform/errors';
import { parseStored } from '../platform/storedJson';

/** Checks and masking of bulk load session settings. */

/**
 * A session's settings as stored (`{in, out, exec, filters}` with sealed credentials), or its config diff: an
 * object whose parts each source and filter reads and checks for itself.
 */
const part = z.record(z.string(), z.unknown());
const storedConfig = z.looseObject({ in: part.optional(), out: part.optional() });
export type StoredConfig = z.infer<typeof storedConfig>;

/** Reads stored settings; `where` names the column, e.g. `bulk_loads.config_json`. */
export const readConfig = (text: string, where: string): StoredConfig => parseStored(storedConfig, text, where);

export const MASK = '***';

/**
 * Keys whose values are credentials: passwords, secrets, tokens, private keys, and any `*_key` or
 * `apikey`. Checked on every level of the configuration (the OAS example has one under `exec`).
 */
const CREDENTIAL = /(password|passwd|secret|token|passphrase|credential|private|(^|_)key$|apikey)/i;

export function isCredentialKey(key: string): boolean {
  return CREDENTIAL.test(key);
}

/** A copy of the configuration with every credential value replaced by `***`. */
export function maskConfig(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskConfig);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = isCredentialKey(k) && v !== null && v !== '' ? MASK : maskConfig(v);
    }
    return out;
  }
  return value;
}

/**
 * A configuration sent back by a client that read it masked: wherever it still says `***` for a
 * credential, the stored value stays, so a read-modify-write never wipes a password.
 */
export function keepMaskedCredentials(next: unknown, stored: unknown): unknown {
  if (Array.isArray(next)) {
    return next.map((v, i) => keepMaskedCredentials(v, Array.isArray(stored) ? stored[i] : undefined));
  }
  if (next && typeof next === 'object') {
    const before =
      stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(next)) {
      out[k] = isCredentialKey(k) && v === MASK && k in before ? before[k] : keepMaskedCredentials(v, before[k]);
    }
    return out;
  }
  return next;
}

/** The one cron rule (platform/cron.ts); re-exported for the callers that found it here. */
export { checkCron } from '../platform/cron';

export { checkTimezone } from '../platform/timeZone';

/** `start_at` as ISO 8601 (or null) → Unix milliseconds. */
export function parseStartAt(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const ms =
    typeof v === 'number'
      ? v * 1000
      : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)
        ? Date.parse(v)
        : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw badRequest('"start_at" must be an ISO 8601 time such as "2026-01-01T00:00:00Z", or Unix seconds.');
  }
  return ms;
}

/**
 * Source options of the reference (Embulk-style JDBC inputs) that runs here do not implement, each with the
 * value that means "not used". Any other value is refused with 400 naming the field, never ignored.
 */
const UNSUPPORTED_INPUT: Record<string, { neutral: unknown; instead: string }> = {
  use_custom_query: { neutral: false, instead: 'load the table, or a view in the warehouse that holds the query' },
  query: { neutral: undefined, instead: 'create a view in the warehouse and load it' },
  select: { neutral: '*', instead: 'list the columns to load in "columns"' },
  where: { neutral: undefined, instead: 'create a view in the warehouse with the condition and load it' },
  order_by: { neutral: undefined, instead: 'rows land in one transaction, so their order does not matter' },
  invalid_value_option: {
    neutral: 'fail_job',
    instead: 'a value that cannot be converted fails the run (fail_job), the only behaviour supported',
  },
  last_record: { neutral: undefined, instead: 'the first incremental run loads every row' },
};

/** A 400 for the first unsupported source option in `input` (`where` is the path shown before the key). */
export function checkSourceOptions(input: Record<string, unknown>, where: string): void {
  for (const [key, { neutral, instead }] of Object.entries(UNSUPPORTED_INPUT)) {
    const v = input[key];
    if (v === undefined || v === null || v === neutral || (key === 'last_record' && Array.isArray(v) && v.length === 0))
      continue;
    throw badRequest(`"${where}.${key}" is not supported by this server: ${instead}.`);
  }
}

/**
 * Filters a run applies: `rename` (`columns`: source name → column name) and `add_time` from the upload
 * time into `time`. Anything else is refused with 400 naming it.
 */
export function checkFilters(filters: unknown, where: string): void {
  if (filters === undefined || filters === null) return;
  if (!Array.isArray(filters)) throw badRequest(`"${where}" must be an array of filters.`);
  filters.forEach((f: Record<string, unknown>, i) => {
    const at = `${where}[${i}]`;
    if (f?.type === 'rename') {
      const cols = f.columns;
      if (!cols || typeof cols !== 'object' || Object.values(cols).some((v) => typeof v !== 'string')) {
        throw badRequest(`"${at}.columns" must map source column names to new names, e.g. {"Name": "name"}.`);
      }
      // Targets become columns as they are: they follow the schema rule (which keeps `v` free, decision 0019).
      for (const to of Object.values(cols) as string[]) {
        try {
          checkSchemaColumnName(to);
        } catch (err) {
          if (err instanceof ApiError) throw badRequest(`"${at}.columns": ${err.message}`);
          throw err;
        }
      }
      return;
    }
    if (f?.type === 'add_time') {
      const to = (f.to_column as { name?: unknown } | undefined)?.name ?? 'time';
      const mode = (f.from_value as { mode?: unknown } | undefined)?.mode;
      if (to !== 'time' || (mode !== undefined && mode !== 'upload_time') || f.from_column !== undefined) {
        throw badRequest(
          `"${at}" is an add_time filter this server does not support: only {"to_column": {"name": "time"}, "from_value": {"mode": "upload_time"}}; use "time_column" to take the time from a column.`,
        );
      }
      return;
    }
    throw badRequest(
      `"${at}.type" "${String(f?.type).slice(0, 60)}" is not a filter this server applies; supported: rename, add_time.`,
    );
  });
}
