import { latestFire, nextFire } from '../platform/cron';
import type { ScheduleRow } from './store';

/**
 * When a schedule runs. Its cron gives slots (the times its runs are "for": TD_SCHEDULED_TIME); a slot's
 * run starts `delay` seconds after it. A slot fires once, and only if it is later than `fired_through`
 * (the last slot fired, or when the cron took effect). After a time no node ran, only the latest due slot
 * fires: missed ones are not made up.
 */

type Timing = Pick<ScheduleRow, 'cron' | 'timezone' | 'delay' | 'fired_through'>;

/** The slot that is due now and has not fired, or null. */
export function dueSlot(s: Timing, now: number): number | null {
  if (!s.cron) return null;
  const slot = latestFire(s.cron, s.timezone, now - s.delay * 1000);
  return slot !== null && slot > s.fired_through ? slot : null;
}

/** The next slot the schedule will run for (a due one that has not fired yet included); null without a cron. */
export function nextSlot(s: Timing, now: number): number | null {
  if (!s.cron) return null;
  return dueSlot(s, now) ?? nextFire(s.cron, s.timezone, Math.max(s.fired_through, now - s.delay * 1000));
}

/** The slots of an on-demand run from `first` (ms): it, then the cron's next ones. */
export function runSlots(s: Pick<ScheduleRow, 'cron' | 'timezone'>, first: number, count: number): number[] {
  const slots = [first];
  while (slots.length < count && s.cron) {
    const next = nextFire(s.cron, s.timezone, slots[slots.length - 1] as number);
    if (next === null) break;
    slots.push(next);
  }
  return slots;
}
