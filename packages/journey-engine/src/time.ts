import type { Instant, PauseInterval } from './types';
import { DAY_MS } from './types';

/** Pauses sorted by start, overlapping ones merged; an open pause (to null) runs to +infinity. */
export function normalizePauses(pauses: ReadonlyArray<PauseInterval>): Array<{ from: number; to: number }> {
  const sorted = pauses
    .map((p) => ({ from: p.from, to: p.to ?? Number.POSITIVE_INFINITY }))
    .filter((p) => p.to > p.from)
    .sort((a, b) => a.from - b.from);
  const merged: Array<{ from: number; to: number }> = [];
  for (const p of sorted) {
    const last = merged[merged.length - 1];
    if (last && p.from <= last.to) last.to = Math.max(last.to, p.to);
    else merged.push({ ...p });
  }
  return merged;
}

export type Pauses = ReturnType<typeof normalizePauses>;

/** Is the journey paused at `at`? A pause covers [from, to). */
export function isPausedAt(pauses: Pauses, at: Instant): boolean {
  return pauses.some((p) => p.from <= at && at < p.to);
}

/** Milliseconds between `from` and `to` during which the journey was not paused. */
export function activeMs(pauses: Pauses, from: Instant, to: Instant): number {
  if (to <= from) return 0;
  let paused = 0;
  for (const p of pauses) {
    if (p.from >= to) break;
    const start = Math.max(p.from, from);
    const end = Math.min(p.to, to);
    if (end > start) paused += end - start;
  }
  return to - from - paused;
}

/**
 * The first instant at which `duration` ms of unpaused time have passed since `from`, given the pauses
 * known now; +infinity when an open pause starts before that.
 */
export function dueAfter(pauses: Pauses, from: Instant, duration: number): Instant {
  let due = from + duration;
  for (const p of pauses) {
    if (p.to <= from) continue;
    if (p.from >= due) break;
    // The pause overlaps [from, due): push the due instant back by the paused part.
    due += p.to - Math.max(p.from, from);
  }
  return due;
}

/** Length in ms of a wait or exitAfter counted in `unit` (days; weeks are read too). */
export function unitMs(amount: number, unit: string | null | undefined): number {
  const u = (unit ?? 'day').toLowerCase();
  const perUnit = u === 'week' || u === 'weeks' ? 7 * DAY_MS : DAY_MS;
  return Math.max(0, amount) * perUnit;
}
