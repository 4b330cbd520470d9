import { figureKey, figuresOf } from '@svc/journey-engine';
import type { Executor } from '../platform/storage';
import { abCounts, addAbCounts } from './abCounts';
import { type ByEntry, eventsByEntry } from './entries';
import { eventsBetween } from './eventLog';
import { addPerInstantAndDay, type CountTables } from './grainCounts';

/**
 * A journey's figures counted per run instant and per day (`journey_figure_instants`, migration 51, decision 0057;
 * `journey_figure_days`, migration 46, decision 0054). Each row says how many times profiles reached a figure at a
 * time (an instant, or a day) whose previous time at that figure was `prev` (in the same grain). A profile counts
 * once in a window, at its first time there: exactly the rows whose previous time lies before the window
 * (countTally.ts reads them). The run that writes the events adds their counts in the same transaction (store.ts
 * `saveRun`).
 *
 * The run knows a profile's previous time at a figure without reading its history: a journey has no loops and
 * stages only move forward, so within one entry each figure is reached at most once; in a first entry there is
 * no earlier time, and an earlier time in the same run is in hand. Only a later entry's figures have an earlier
 * time the run does not hold: they are stored with prev UNKNOWN, and a window holding such a row is counted
 * from the event log (figures.ts).
 */

/** `prev` of a figure reached for the first time. */
const NEVER = -1;
/** `prev` of a figure reached in a later entry, whose previous time the run did not read. */
export const UNKNOWN = -2;
/** The `kind` of a count of events of re-entries (not a figure). */
export const LATER = 'later';
const FIGURE_TABLES: CountTables = {
  instants: 'journey_figure_instants',
  days: 'journey_figure_days',
  keys: ['kind', 'fid', 'sub'],
  instantColumns: ['at', 'prev_at'],
  dayColumns: ['day', 'prev_day'],
};

/**
 * The counts per instant of some profiles' events with their entries (eventsByEntry), keyed by figure, instant
 * and previous instant; `wholeHistory` says the events are all the journey ever logged for them, so a figure not
 * reached before among them was never reached before.
 */
export function figureCounts(byEntry: ByEntry, wholeHistory: boolean): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (row: string) => counts.set(row, (counts.get(row) ?? 0) + 1);
  for (const list of byEntry.values()) {
    const lastAt = new Map<string, number>();
    for (const { event: e, entry } of list) {
      // A re-entry's events: the A/B tallies of a window holding them are counted from the log.
      if (entry > 1) add(`${LATER}\u0000\u0000\u0000${e.at}\u0000${NEVER}`);
      for (const [kind, id, sub] of figuresOf(e)) {
        const figure = figureKey(kind, id, sub);
        const prev = lastAt.get(figure) ?? (wholeHistory || entry <= 1 ? NEVER : UNKNOWN);
        lastAt.set(figure, e.at);
        add(`${figure}\u0000${e.at}\u0000${prev}`);
      }
    }
  }
  return counts;
}

/** Adds counts per instant (figureCounts) to the journey's, and their sums per day. Call inside the transaction that writes the events. */
export function addFigureCounts(
  ex: Executor,
  accountId: number,
  journeyId: number,
  counts: ReadonlyMap<string, number>,
): Promise<void> {
  return addPerInstantAndDay(ex, FIGURE_TABLES, accountId, journeyId, counts);
}

/**
 * Counts the journey's figures and A/B tallies again from its whole event log (tests that write events straight
 * into the log; a repair). Call inside a transaction.
 */
export async function recountFigures(ex: Executor, accountId: number, journeyId: number): Promise<void> {
  for (const table of [
    'journey_figure_days',
    'journey_ab_days',
    'journey_figure_instants',
    'journey_ab_instants',
  ] as const) {
    await ex.deleteFrom(table).where('journey_id', '=', journeyId).where('account_id', '=', accountId).execute();
  }
  const events = await eventsBetween(ex, accountId, journeyId, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const byEntry = eventsByEntry(events, new Map(), true);
  await addFigureCounts(ex, accountId, journeyId, figureCounts(byEntry, true));
  await addAbCounts(ex, accountId, journeyId, await abCounts(ex, accountId, journeyId, byEntry, new Map(), true));
}
