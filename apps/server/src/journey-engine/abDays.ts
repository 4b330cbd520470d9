import type { ProfileState, StatisticsTally } from '@svc/journey-engine';
import { type ColumnKind, type Executor, insertRowsInBatches } from '../platform/storage';
import { type ByEntry, dayOf } from './entries';

/**
 * A journey's A/B tallies counted per day (`journey_ab_days`, migration 46, decision 0054): per test step and
 * variant, how many profiles were assigned on `day` in their first entry, and on which day that entry reached the
 * goal (`goal_day`, -1 not yet). The statistics' rule (the engine's `journeyStatistics`) counts a variant's
 * profiles by their first assignment in the window and its conversions by a goal reached in the window at or
 * after it. In a first entry a profile is assigned once per test and reaches the goal at most once, after its
 * assignments (the goal ends the entry), so for a window of whole days that holds no re-entry the rule reads
 * the rows assigned in the window, converted when their goal day is in it too. A window holding a re-entry
 * (figureDays.ts `LATER` rows) is counted from the log.
 */

const NOT_YET = -1;
/** Rows per statement (7 bound values each). */
const ROWS_PER_STATEMENT = 500;
const KINDS: ColumnKind[] = ['integer', 'integer', 'text', 'text', 'integer', 'integer', 'integer'];

type Assignment = { variantId: string; day: number };

/** Goals of profiles assigned in an earlier run, to read their assignment: test step -> profile -> goal day. */
type EarlierGoals = Map<string, Map<string, number>>;

const addTo = (counts: Map<string, number>, step: string, a: Assignment, goalDay: number, n: number) => {
  const row = `${step}\u0000${a.variantId}\u0000${a.day}\u0000${goalDay}`;
  counts.set(row, (counts.get(row) ?? 0) + n);
};

/**
 * The changes to the A/B day counts that some profiles' events make (as figureDayCounts takes them), and the goals
 * whose assignment was made in an earlier run (none when `wholeHistory`). A goal moves the profile's row from
 * "not yet" to its day.
 */
function abDayChanges(
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
        const a = { variantId: e.variantId, day: dayOf(e.at) };
        assigned.set(e.stepId, a);
        addTo(counts, e.stepId, a, NOT_YET, 1);
      } else if (e.type === 'goal_reached') {
        for (const [step, a] of assigned) {
          addTo(counts, step, a, NOT_YET, -1);
          addTo(counts, step, a, dayOf(e.at), 1);
        }
        if (wholeHistory) continue;
        for (const step of Object.keys(states.get(key)?.variants ?? {})) {
          if (assigned.has(step)) continue;
          const forStep = earlier.get(step) ?? new Map<string, number>();
          earlier.set(step, forStep);
          forStep.set(key, dayOf(e.at));
        }
      }
    }
  }
  return { counts, earlier };
}

/**
 * abDayChanges, with the assignments of earlier runs read from `journey_ab_assignments` (by primary key, for the
 * profiles that reached the goal).
 */
export async function abDayCounts(
  ex: Executor,
  accountId: number,
  journeyId: number,
  byEntry: ByEntry,
  states: ReadonlyMap<string, ProfileState>,
  wholeHistory: boolean,
): Promise<Map<string, number>> {
  const { counts, earlier } = abDayChanges(byEntry, states, wholeHistory);
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
        const a = { variantId: r.variant_id, day: dayOf(Number(r.assigned_at)) };
        addTo(counts, step, a, NOT_YET, -1);
        addTo(counts, step, a, goals.get(r.profile_key) ?? NOT_YET, 1);
      }
    }
  }
  return counts;
}

/** Adds changes (abDayCounts) to the journey's A/B day counts. Call inside the transaction that writes the events. */
export async function addAbDays(
  ex: Executor,
  accountId: number,
  journeyId: number,
  counts: ReadonlyMap<string, number>,
): Promise<void> {
  const rows = [...counts]
    .filter(([, n]) => n !== 0)
    .map(([row, n]) => {
      const [step, variant, day, goalDay] = row.split('\u0000');
      return [accountId, journeyId, step, variant, Number(day), Number(goalDay), n];
    });
  await insertRowsInBatches(
    ex,
    'INSERT INTO journey_ab_days (account_id, journey_id, step_id, variant_id, day, goal_day, n)',
    KINDS,
    rows,
    `ON CONFLICT (account_id, journey_id, day, step_id, variant_id, goal_day)
     DO UPDATE SET n = journey_ab_days.n + excluded.n`,
  );
}

/** The A/B tallies of a window of whole days `first`..`last` holding no re-entry (see above). */
export async function abTally(
  ex: Executor,
  accountId: number,
  journeyId: number,
  first: number,
  last: number,
): Promise<StatisticsTally['variants']> {
  const rows = await ex
    .selectFrom('journey_ab_days')
    .select(['step_id', 'variant_id', 'goal_day', 'n'])
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .where((w) => w.between('day', first, last))
    .execute();
  const out = new Map<string, Map<string, { profiles: number; goal: number }>>();
  for (const r of rows) {
    const n = Number(r.n);
    if (n === 0) continue;
    const forTest = out.get(r.step_id) ?? new Map<string, { profiles: number; goal: number }>();
    out.set(r.step_id, forTest);
    const c = forTest.get(r.variant_id) ?? { profiles: 0, goal: 0 };
    forTest.set(r.variant_id, c);
    c.profiles += n;
    const goalDay = Number(r.goal_day);
    if (goalDay !== NOT_YET && goalDay <= last) c.goal += n;
  }
  return out;
}
