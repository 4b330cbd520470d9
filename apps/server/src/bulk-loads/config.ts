import { Cron } from 'croner';
import { badRequest } from '../platform/errors';

/** Checks and masking of bulk load session settings. */

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

const NICKNAMES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly']);

/** A 5-field cron expression or a nickname; null or "" means no schedule. Refused when it never fires. */
export function checkCron(cron: string | null | undefined, timezone: string): string | null {
  if (cron === null || cron === undefined || cron.trim() === '') return null;
  const expr = cron.trim();
  if (!NICKNAMES.has(expr.toLowerCase()) && expr.split(/\s+/).length !== 5) {
    throw badRequest(
      `"cron" must have five fields (minute hour day-of-month month day-of-week), e.g. "0 * * * *", or be one of ${[...NICKNAMES].join(', ')}; got "${expr.slice(0, 100)}".`,
    );
  }
  let job: Cron;
  try {
    job = new Cron(expr, { paused: true, timezone });
  } catch (err) {
    throw badRequest(`"cron" is not a valid schedule: ${(err as Error).message.replace(/^CronPattern: /, '')}.`);
  }
  const next = job.nextRun();
  job.stop();
  if (!next) throw badRequest(`"cron" "${expr}" never fires (no such date); check the day and month fields.`);
  return expr;
}

/** An IANA time zone name such as `UTC` or `Asia/Tokyo`. */
export function checkTimezone(tz: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw badRequest(
      `"timezone" must be an IANA time zone name such as "UTC" or "Asia/Tokyo", not "${tz.slice(0, 60)}".`,
    );
  }
  return tz;
}

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
