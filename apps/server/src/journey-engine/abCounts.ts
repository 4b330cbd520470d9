import type { ProfileState, StatisticsTally } from '@svc/journey-engine';
import { type Executor, many, sql } from '../platform/storage';
import type { ByEntry } from './entries';
import { addPerInstantAndDay, type CountTables } from './grainCounts';

/**
 * A journey's A/B tallies counted per run instant and per day (`journey_ab_instants`, migration 51, decision 0057;
 * `journey_ab_days`, migration 46, decision 0054): per test step and variant, how many profiles were assigned at a
 * time in their first entry, and when that entry reached the goal (`goal`, -1 not yet). The statistics' rule (the
 * engine's `journeyStatistics`) counts a variant's profiles by their first assignment in the window and its
 * conversions by a goal reached in the window at or after it. In a first entry a profile is assigned once per test
 * and reaches the goal at most once, after its assignments (the goal ends the entry), so for a window that holds no
 * re-entry the rule reads the rows assigned in the window, converted when their goal lies in it too. A window
 * holding a re-entry (figureCounts.ts `LATER` rows) is counted from the log.
 */

const NOT_YET = -1;
/** Rows per statement (7 bound values each). */
const ROWS_PER_STATEMENT = 500;
const DAY_MS = 86_400_000;

type Assignment = { variantId: string; at: number };

/** Goals of profiles assigned in an earlier run, to read their assignment: test step -> profile -> goal instant. */
type EarlierGoals = Map<string, Map<string, number>>;

const addTo = (counts: Map<string, number>, step: string, a: Assignment, goalAt: number, n: number) => {
  const row = `${step}\u0000${a.variantId}\u0000${a.at}\u0000${goalAt}`;
  counts.set(row, (counts.get(row) ?? 0) + n);
};

/**
 * The changes to the A/B counts per instant that some profiles' events make (as figureCounts takes them), and the
 * goals whose assignment was made in an earlier run (none when `wholeHistory`). A goal moves the profile's row
 * from "not yet" to its instant.
 */
function abChanges(
  byEntry: ByEntry,
  states: ReadonlyMap<string, ProfileState>,
  wholeHistory: boolean,
): { counts: Map<string, number>; earlier: EarlierGoals } {
  const counts = new Map<string, number>();
  const earlier: EarlierGoals = new Map();
  for (const [key, list] of byEntry) {
    const assigned = new Map<string, Assignment>();
    for (const { event: e, entry } of list) {
      if (entry !== 1) continue;
      if (e.type === 'variant_assigned' && e.stepId && e.variantId && !e.kept) {
        const a = { variantId: e.variantId, at: e.at };
        assigned.set(e.stepId, a);
        addTo(counts, e.stepId, a, NOT_YET, 1);
      } else if (e.type === 'goal_reached') {
        for (const [step, a] of assigned) {
          addTo(counts, step, a, NOT_YET, -1);
          addTo(counts, step, a, e.at, 1);
        }
        if (wholeHistory) continue;
        for (const step of Object.keys(states.get(key)?.variants ?? {})) {
          if (assigned.has(step)) continue;
          const forStep = earlier.get(step) ?? new Map<string, number>();
          earlier.set(step, forStep);
          forStep.set(key, e.at);
        }
      }
    }
  }
  return { counts, earlier };
}

/**
 * abChanges, with the assignments of earlier runs read from `journey_ab_assignments` (by primary key, for the
 * profiles that reached the goal).
 */
export async function abCounts(
  ex: Executor,
  accountId: number,
  journeyId: number,
  byEntry: ByEntry,
  states: ReadonlyMap<string, ProfileState>,
  wholeHistory: boolean,
): Promise<Map<string, number>> {
  const { counts, earlier } = abChanges(byEntry, states, wholeHistory);
  for (const [step, goals] of earlier) {
    const keys = [...goals.keys()];
    for (let at = 0; at < keys.length; at += ROWS_PER_STATEMENT) {
      const rows = await ex
        .selectFrom('journey_ab_assignments')
        .select(['profile_key', 'variant_id', 'assigned_at'])
        .where('journey_id', '=', journeyId)
        .where('step_id', '=', step)
        .where('profile_key', 'in', keys.slice(at, at + ROWS_PER_STATEMENT))
        .where('account_id', '=', accountId)
        .execute();
      for (const r of rows) {
        const a = { variantId: r.variant_id, at: Number(r.assigned_at) };
        addTo(counts, step, a, NOT_YET, -1);
        addTo(counts, step, a, goals.get(r.profile_key) ?? NOT_YET, 1);
      }
    }
  }
  return counts;
}

const AB_TABLES: CountTables = {
  instants: 'journey_ab_instants',
  days: 'journey_ab_days',
  keys: ['step_id', 'variant_id'],
  instantColumns: ['at', 'goal_at'],
  dayColumns: ['day', 'goal_day'],
};

/**
 * Adds changes per instant (abCounts) to the journey's A/B counts, and their sums per day. Call inside the
 * transaction that writes the events.
 */
export function addAbCounts(
  ex: Executor,
  accountId: number,
  journeyId: number,
  counts: ReadonlyMap<string, number>,
): Promise<void> {
  return addPerInstantAndDay(ex, AB_TABLES, accountId, journeyId, counts);
}

interface AbRow {
  step_id: string;
  variant_id: string;
  goal: number | string;
  n: number | string;
}

type Variants = Map<string, Map<string, { profiles: number; goal: number }>>;

/** Adds A/B rows to a tally: their profiles when `profiles`, and those whose goal `converted` says lies in the window. */
function addRows(out: Variants, rows: AbRow[], profiles: boolean, converted: (goal: number) => boolean): void {
  for (const r of rows) {
    const n = Number(r.n);
    if (n === 0) continue;
    const forTest = out.get(r.step_id) ?? new Map<string, { profiles: number; goal: number }>();
    out.set(r.step_id, forTest);
    const c = forTest.get(r.variant_id) ?? { profiles: 0, goal: 0 };
    forTest.set(r.variant_id, c);
    if (profiles) c.profiles += n;
    const goal = Number(r.goal);
    if (goal !== NOT_YET && converted(goal)) c.goal += n;
  }
}

/** A grain's A/B rows of a journey with their time in `[lo, hi]` (and their goal in `goal`, when given). */
async function abRows(
  ex: Executor,
  accountId: number,
  journeyId: number,
  grain: 'instants' | 'days',
  [lo, hi]: readonly [number, number],
  goal?: readonly [number, number],
): Promise<AbRow[]> {
  const [table, time, goalColumn] =
    grain === 'days' ? ['journey_ab_days', 'day', 'goal_day'] : ['journey_ab_instants', 'at', 'goal_at'];
  return many<AbRow>(
    ex,
    sql`SELECT step_id, variant_id, ${sql.raw(goalColumn)} AS goal, n FROM ${sql.raw(table)}
        WHERE account_id = ${accountId} AND journey_id = ${journeyId} AND ${sql.raw(time)} BETWEEN ${lo} AND ${hi}
          ${goal ? sql`AND ${sql.raw(goalColumn)} BETWEEN ${goal[0]} AND ${goal[1]}` : sql``}`,
  );
}

/**
 * The A/B tallies of a window holding no re-entry. `days` are the whole days (first..last) countTally read from
 * the day counts, or null when it read the window's instants; the parts of the window before and after them are
 * read per instant. A goal on the window's last day is placed before or after the window's end by its instant.
 */
export async function abTally(
  ex: Executor,
  accountId: number,
  journeyId: number,
  window: { from: number; to: number },
  days: { first: number; last: number } | null,
): Promise<StatisticsTally['variants']> {
  const out: Variants = new Map();
  const inWindow = (goal: number) => goal <= window.to;
  if (!days) {
    addRows(out, await abRows(ex, accountId, journeyId, 'instants', [window.from, window.to]), true, inWindow);
    return out;
  }
  const { first, last } = days;
  addRows(out, await abRows(ex, accountId, journeyId, 'days', [first, last]), true, (day) => day <= last);
  const start = first * DAY_MS;
  const end = (last + 1) * DAY_MS;
  if (window.from < start) {
    addRows(out, await abRows(ex, accountId, journeyId, 'instants', [window.from, start - 1]), true, inWindow);
  }
  if (window.to >= end) {
    // Profiles assigned on the days read above whose goal came after them, before the window's end.
    const goals = await abRows(ex, accountId, journeyId, 'instants', [start, end - 1], [end, window.to]);
    addRows(out, goals, false, inWindow);
    addRows(out, await abRows(ex, accountId, journeyId, 'instants', [end, window.to]), true, inWindow);
  }
  return out;
}
