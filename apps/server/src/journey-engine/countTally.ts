import { type FigureKind, figureKey, type StatisticsTally, type StatisticsWindow } from '@svc/journey-engine';
import { type Executor, many, sql } from '../platform/storage';
import { abTally } from './abCounts';
import { dayOf } from './entries';
import { LATER, UNKNOWN } from './figureCounts';

/**
 * The statistics of a window from the counts the runs keep (figureCounts.ts, abCounts.ts; decisions 0054, 0057),
 * whatever its ends: the whole days inside it from the day counts, the parts of days at its ends from the counts
 * per run instant. A profile counts once, at its first time in the window: the rows whose previous time lies
 * before the window's start. A day row whose previous time lies on the window's first day cannot say whether that
 * was before the start; then the whole window is read per instant.
 */

const DAY_MS = 86_400_000;

/** A window's entries and distinct profiles per figure key. */
export interface FigureTally {
  entries: number;
  profiles: Map<string, number>;
}

/** The counts' answer for a window: its figures, and its A/B tallies (null: a re-entry lies in it, count them over the log). */
export interface CountsAnswer extends FigureTally {
  variants: StatisticsTally['variants'] | null;
}

interface FigureRow {
  kind: string;
  fid: string;
  sub: string;
  prev: number | string;
  n: number | string;
}

/** Whether a row's time counts its profile: yes, no, or the grain cannot say. */
type Counts = (prev: number) => 'yes' | 'no' | 'unsure';

class Tally implements FigureTally {
  entries = 0;
  profiles = new Map<string, number>();
  later = false;

  /** Adds rows; 'unknown' when one is a re-entry's figure whose previous time is unknown, 'unsure' as `counts` says. */
  add(rows: FigureRow[], counts: Counts): 'ok' | 'unknown' | 'unsure' {
    for (const r of rows) {
      if (r.kind === LATER) {
        this.later = true;
        continue;
      }
      const prev = Number(r.prev);
      if (prev === UNKNOWN) return 'unknown';
      const verdict = counts(prev);
      if (verdict === 'unsure') return 'unsure';
      const n = Number(r.n);
      if (r.kind === 'entered') this.entries += n;
      if (verdict === 'no') continue;
      const key = figureKey(r.kind as FigureKind, r.fid, r.sub);
      this.profiles.set(key, (this.profiles.get(key) ?? 0) + n);
    }
    return 'ok';
  }
}

/** A grain's figure rows of a journey with their time in `[lo, hi]`. */
async function figureRows(
  ex: Executor,
  accountId: number,
  journeyId: number,
  grain: 'instants' | 'days',
  lo: number,
  hi: number,
): Promise<FigureRow[]> {
  const [table, time, prev] =
    grain === 'days' ? ['journey_figure_days', 'day', 'prev_day'] : ['journey_figure_instants', 'at', 'prev_at'];
  return many<FigureRow>(
    ex,
    sql`SELECT kind, fid, sub, ${sql.raw(prev)} AS prev, n FROM ${sql.raw(table)}
        WHERE account_id = ${accountId} AND journey_id = ${journeyId} AND ${sql.raw(time)} BETWEEN ${lo} AND ${hi}`,
  );
}

/**
 * Whether the journey's runs counted anything with `from <= at <= to`: a figure (a goal among them, and a
 * re-entry's events) or an A/B assignment. Two probes of small tables' keys.
 */
async function countedBetween(ex: Executor, accountId: number, journeyId: number, from: number, to: number) {
  for (const table of ['journey_figure_instants', 'journey_ab_instants'] as const) {
    const row = await ex
      .selectFrom(table)
      .select('n')
      .where('account_id', '=', accountId)
      .where('journey_id', '=', journeyId)
      .where((w) => w.between('at', from, to))
      .limit(1)
      .executeTakeFirst();
    if (row) return true;
  }
  return false;
}

/**
 * The window's statistics from the counts, or null when they cannot say: the window lies before 1970, or holds a
 * later entry's figure (its previous time unknown to the run that counted it).
 */
export async function countTally(
  ex: Executor,
  accountId: number,
  journeyId: number,
  window: StatisticsWindow,
): Promise<CountsAnswer | null> {
  const { from, to } = window;
  if (from < 0) return null;
  const start = dayOf(from);
  const end = dayOf(to);
  // The whole days inside the window: its last day counts as whole when nothing was counted after the window's end.
  const first = from % DAY_MS === 0 ? start : start + 1;
  const last =
    to % DAY_MS === DAY_MS - 1 || !(await countedBetween(ex, accountId, journeyId, to + 1, (end + 1) * DAY_MS - 1))
      ? end
      : end - 1;
  let tally = new Tally();
  let days: { first: number; last: number } | null = null;
  if (first <= last) {
    // A previous day before the window's first counts; one on it counts only if the window starts at midnight.
    const dayRows = await figureRows(ex, accountId, journeyId, 'days', first, last);
    const outcome = tally.add(dayRows, (prev) =>
      prev < start ? 'yes' : prev > start || first === start ? 'no' : 'unsure',
    );
    if (outcome === 'unknown') return null;
    if (outcome === 'ok') days = { first, last };
    else tally = new Tally();
  }
  const parts: Array<[number, number]> = [];
  if (!days) parts.push([from, to]);
  else {
    if (from < first * DAY_MS) parts.push([from, first * DAY_MS - 1]);
    if (to >= (last + 1) * DAY_MS) parts.push([(last + 1) * DAY_MS, to]);
  }
  for (const [lo, hi] of parts) {
    const rows = await figureRows(ex, accountId, journeyId, 'instants', lo, hi);
    if (tally.add(rows, (prev) => (prev < from ? 'yes' : 'no')) === 'unknown') return null;
  }
  const variants = tally.later ? null : await abTally(ex, accountId, journeyId, window, days);
  return { entries: tally.entries, profiles: tally.profiles, variants };
}
