import { Cron } from 'croner';
import { badRequest } from './errors';

/**
 * Cron schedules (bulk load sessions, scheduled queries): five fields (minute hour day-of-month month
 * day-of-week, either day field matching, as Vixie cron) or a nickname, read in an IANA time zone. Slots
 * are whole minutes, so two slots are always at least a minute apart.
 */

const NICKNAMES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly']);

function cronOf(cron: string, timezone: string): Cron {
  return new Cron(cron, { paused: true, timezone });
}

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
    job = cronOf(expr, timezone);
  } catch (err) {
    throw badRequest(`"cron" is not a valid schedule: ${(err as Error).message.replace(/^CronPattern: /, '')}.`);
  }
  const next = job.nextRun();
  job.stop();
  if (!next) throw badRequest(`"cron" "${expr}" never fires (no such date); check the day and month fields.`);
  return expr;
}

/** The next time a cron fires strictly after `after` (ms), in its time zone; null when it never does. */
export function nextFire(cron: string, timezone: string, after: number): number | null {
  const job = cronOf(cron, timezone);
  const next = job.nextRun(new Date(after));
  job.stop();
  return next ? next.getTime() : null;
}

/** The latest time a cron fires at or before `at` (ms), in its time zone; null when it never did. */
export function latestFire(cron: string, timezone: string, at: number): number | null {
  const job = cronOf(cron, timezone);
  // Croner looks strictly before its reference and slots are a minute apart: of the two latest slots
  // before `at` + 1 minute, one is at or before `at`.
  const found = job.previousRuns(2, new Date(at + 60_000)).find((d) => d.getTime() <= at);
  job.stop();
  return found ? found.getTime() : null;
}
