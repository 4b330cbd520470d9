import { checkCron, checkTimezone } from '../bulk-loads';
import { badRequest } from '../platform/errors';

/**
 * An integration's schedule (OAS `Schedule`) as a cron expression in its time zone: `none`; `hourly`
 * "MM" (minute, default 0); `daily` "HH:MM"; `weekly` "DAY HH:MM" (DAY 0–6 or sun–sat); `monthly`
 * "D HH:MM" (day 1–28); `minutes_interval` "N" (1–59); `cron` a 5-field expression.
 */

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function hhmm(v: string, type: string): [number, number] {
  const m = /^(\d{1,2}):(\d{2})$/.exec(v.trim());
  const h = Number(m?.[1]);
  const min = Number(m?.[2]);
  if (!m || h > 23 || min > 59)
    throw badRequest(`"schedule_option" of a ${type} schedule needs a time "HH:MM", e.g. "10:00".`);
  return [h, min];
}

export function scheduleCron(type: string, option: string | null | undefined, timezone: string): string | null {
  checkTimezone(timezone);
  const o = (option ?? '').trim();
  let cron: string | null;
  switch (type) {
    case 'none':
      return null;
    case 'hourly': {
      const min = o === '' ? 0 : Number(o.replace(/^:/, ''));
      if (!Number.isInteger(min) || min < 0 || min > 59)
        throw badRequest('"schedule_option" of an hourly schedule is the minute, 0 to 59.');
      cron = `${min} * * * *`;
      break;
    }
    case 'daily': {
      const [h, min] = hhmm(o || '00:00', 'daily');
      cron = `${min} ${h} * * *`;
      break;
    }
    case 'weekly': {
      const [day = '', time = ''] = o.split(/\s+/);
      const d = /^\d$/.test(day) ? Number(day) : DAYS.indexOf(day.slice(0, 3).toLowerCase());
      if (d < 0 || d > 6) throw badRequest('"schedule_option" of a weekly schedule is "DAY HH:MM", e.g. "mon 10:00".');
      const [h, min] = hhmm(time, 'weekly');
      cron = `${min} ${h} * * ${d}`;
      break;
    }
    case 'monthly': {
      const [day = '', time = ''] = o.split(/\s+/);
      const d = Number(day);
      if (!Number.isInteger(d) || d < 1 || d > 28)
        throw badRequest('"schedule_option" of a monthly schedule is "D HH:MM" with D from 1 to 28.');
      const [h, min] = hhmm(time, 'monthly');
      cron = `${min} ${h} ${d} * *`;
      break;
    }
    case 'minutes_interval': {
      const n = Number(o);
      if (!Number.isInteger(n) || n < 1 || n > 59)
        throw badRequest('"schedule_option" of a minutes_interval schedule is a number of minutes, 1 to 59.');
      cron = `*/${n} * * * *`;
      break;
    }
    case 'cron':
      cron = checkCron(o, timezone);
      if (!cron) throw badRequest('"schedule_option" of a cron schedule is a 5-field cron expression.');
      return cron;
    default:
      throw badRequest(
        `"schedule_type" "${type}" is not one of none, hourly, daily, weekly, monthly, minutes_interval, cron.`,
      );
  }
  return checkCron(cron, timezone);
}
