import { type FigureKind, figureKey, figuresOf, type StatisticsWindow } from '@svc/journey-engine';
import { type ColumnKind, type Executor, insertRowsInBatches } from '../platform/storage';
import { abDayCounts, addAbDays } from './abDays';
import { type ByEntry, dayOf, eventsByEntry } from './entries';
import { eventsBetween } from './eventLog';

/**
 * A journey's figures counted per day (`journey_figure_days`, migration 46, decision 0054). Each row says how many
 * times profiles reached a figure on `day` whose previous time at that figure fell on `prev_day`. For a window of
 * whole days, a profile is counted once, on its first day in the window: exactly the rows whose previous day lies
 * before the window. The run that writes the events adds their counts in the same transaction (store.ts `saveRun`).
 *
 * The run knows a profile's previous time at a figure without reading its history: a journey has no loops and
 * stages only move forward, so within one entry each figure is reached at most once; in a first entry there is
 * no earlier time, and an earlier time in the same run is in hand. Only a later entry's figures have an earlier
 * time the run does not hold: they are stored with prev_day UNKNOWN, and a window holding such a row is counted
 * from the event log (figures.ts), as are the other windows dayTally cannot answer.
 */

const DAY_MS = 86_400_000;
/** `prev_day` of a figure reached for the first time. */
const NEVER = -1;
/** `prev_day` of a figure reached in a later entry, whose previous time the run did not read. */
const UNKNOWN = -2;
/** The `kind` of a day's count of events of re-entries (not a figure). */
const LATER = 'later';
const KINDS: ColumnKind[] = ['integer', 'integer', 'text', 'text', 'text', 'integer', 'integer', 'integer'];

/**
 * The day counts of some profiles' events with their entries (eventsByEntry); `wholeHistory` says the events are
 * all the journey ever logged for them, so a figure not reached before among them was never reached before.
 */
export function figureDayCounts(byEntry: ByEntry, wholeHistory: boolean): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (row: string) => counts.set(row, (counts.get(row) ?? 0) + 1);
  for (const list of byEntry.values()) {
    const lastAt = new Map<string, number>();
    for (const { event: e, entry } of list) {
      // A re-entry's events: its day's A/B tallies are counted from the log (abDays.ts).
      if (entry > 1) add(`${LATER}\u0000\u0000\u0000${dayOf(e.at)}\u0000${NEVER}`);
      for (const [kind, id, sub] of figuresOf(e)) {
        const figure = figureKey(kind, id, sub);
        const before = lastAt.get(figure);
        const prevDay = before !== undefined ? dayOf(before) : wholeHistory || entry <= 1 ? NEVER : UNKNOWN;
        lastAt.set(figure, e.at);
        add(`${figure}\u0000${dayOf(e.at)}\u0000${prevDay}`);
      }
    }
  }
  return counts;
}

/** Adds day counts (figureDayCounts) to the journey's. Call inside the transaction that writes the events. */
export async function addFigureDays(
  ex: Executor,
  accountId: number,
  journeyId: number,
  counts: ReadonlyMap<string, number>,
): Promise<void> {
  const rows = [...counts].map(([row, n]) => {
    const [kind, fid, sub, day, prevDay] = row.split('\u0000');
    return [accountId, journeyId, kind, fid, sub, Number(day), Number(prevDay), n];
  });
  await insertRowsInBatches(
    ex,
    'INSERT INTO journey_figure_days (account_id, journey_id, kind, fid, sub, day, prev_day, n)',
    KINDS,
    rows,
    `ON CONFLICT (account_id, journey_id, day, kind, fid, sub, prev_day)
     DO UPDATE SET n = journey_figure_days.n + excluded.n`,
  );
}

/**
 * Counts the journey's figures and A/B tallies again from its whole event log (tests that write events straight
 * into the log; a repair). Call inside a transaction.
 */
export async function recountFigureDays(ex: Executor, accountId: number, journeyId: number): Promise<void> {
  for (const table of ['journey_figure_days', 'journey_ab_days'] as const) {
    await ex.deleteFrom(table).where('journey_id', '=', journeyId).where('account_id', '=', accountId).execute();
  }
  const events = await eventsBetween(ex, accountId, journeyId, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const byEntry = eventsByEntry(events, new Map(), true);
  await addFigureDays(ex, accountId, journeyId, figureDayCounts(byEntry, true));
  await addAbDays(ex, accountId, journeyId, await abDayCounts(ex, accountId, journeyId, byEntry, new Map(), true));
}

/** What the day counts answer for a window: entries and distinct profiles per figure key. */
export interface DayTally {
  entries: number;
  profiles: Map<string, number>;
}

/**
 * The day counts' answer for a window: its entries and profiles per figure, and the whole days whose A/B day
 * counts answer its A/B tallies (null: count those over the log).
 */
export interface DaysAnswer extends DayTally {
  abDays: { first: number; last: number } | null;
}

/**
 * The window's entries and distinct profiles per figure from the day counts, or null when they cannot say. A
 * window that starts inside a day takes that day's part from `head` (a count over the log of that part of the
 * day) and the days after it from the counts: a profile is counted once, in the head if it was there, else on
 * its first day after with a previous day before the window's first. Null when the window lies before 1970 or
 * within one day (the log's count is as cheap), ends inside a day that has events after its end, holds a later
 * entry's figure (prev_day UNKNOWN), or (starting inside a day) a figure reached again after a time on that
 * first day, which the counts cannot place before or after the start.
 */
export async function dayTally(
  ex: Executor,
  accountId: number,
  journeyId: number,
  window: StatisticsWindow,
  head: (from: number, to: number) => Promise<DayTally>,
): Promise<DaysAnswer | null> {
  const start = dayOf(window.from);
  const last = dayOf(window.to);
  const whole = window.from % DAY_MS === 0;
  if (window.from < 0 || (!whole && last === start)) return null;
  if (window.to % DAY_MS !== DAY_MS - 1) {
    // A window that ends inside a day (the default ends now) is whole if that day has nothing after its end.
    const after = await ex
      .selectFrom('journey_run_events')
      .select('id')
      .where('journey_id', '=', journeyId)
      .where('at', '>', window.to)
      .where('at', '<', (last + 1) * DAY_MS)
      .where('account_id', '=', accountId)
      .limit(1)
      .executeTakeFirst();
    if (after) return null;
  }
  // The first day the counts answer for; a previous day must lie before `start` for a profile to count.
  const first = whole ? start : start + 1;
  const rows = await ex
    .selectFrom('journey_figure_days')
    .select(['kind', 'day', 'fid', 'sub', 'prev_day', 'n'])
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .where((w) => w.between('day', start, last))
    .execute();
  const profiles = new Map<string, number>();
  let entries = 0;
  let later = false;
  for (const r of rows) {
    if (r.kind === LATER) {
      later = true;
      continue;
    }
    if (Number(r.day) < first) continue;
    const prevDay = Number(r.prev_day);
    if (prevDay === UNKNOWN || (!whole && prevDay === start)) return null;
    const n = Number(r.n);
    if (r.kind === 'entered') entries += n;
    if (prevDay >= start) continue;
    const key = figureKey(r.kind as FigureKind, r.fid, r.sub);
    profiles.set(key, (profiles.get(key) ?? 0) + n);
  }
  if (!whole) {
    const part = await head(window.from, first * DAY_MS - 1);
    entries += part.entries;
    for (const [key, n] of part.profiles) profiles.set(key, (profiles.get(key) ?? 0) + n);
  }
  // A/B from the counts unless a re-entry lies in the window's days, or (starting inside a day) someone was
  // assigned on its first day, before or after the start.
  const abFromDays = !later && (whole || !(await assignedOn(ex, accountId, journeyId, start)));
  return { entries, profiles, abDays: abFromDays ? { first, last } : null };
}

/** Whether the journey's A/B day counts hold an assignment on the day. */
async function assignedOn(ex: Executor, accountId: number, journeyId: number, day: number): Promise<boolean> {
  const row = await ex
    .selectFrom('journey_ab_days')
    .select('n')
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .where('day', '=', day)
    .where('n', '<>', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
