import { type FigureKind, figureKey, type StatisticsTally, type StatisticsWindow } from '@svc/journey-engine';
import { type Executor, many, type RawBuilder, sql } from '../platform/storage';
import { countTally, type FigureTally } from './countTally';
import { loggedEvents } from './eventLog';
import { positionsOf } from './positions';

/**
 * The statistics of a window counted by the database (decisions 0033, 0054, 0057): the figures and A/B tallies
 * from the counts per day and per run instant the runs keep (countTally.ts), else (a re-entry whose previous time
 * the run did not know lies in the window) a COUNT(DISTINCT) per figure in one pass over the window's range of the
 * log's index on (journey_id, at), and the A/B tallies one grouped query over it; and the
 * "in the journey now" counts are read from the position counts the runs keep (migration 45). Nothing is loaded into memory but
 * the figures themselves, however many profiles the journey has. The rules are those of journeyStatistics
 * (the engine package), which the parity tests hold this to.
 */

interface FigureRow {
  k: FigureKind;
  id: string | null;
  sub: string | null;
  n: number | string;
  c: number | string;
}

interface VariantRow {
  step_id: string | null;
  variant_id: string;
  n: number | string;
  goal: number | string | null;
}

export async function statisticsTally(
  ex: Executor,
  accountId: number,
  journeyId: number,
  window: StatisticsWindow,
): Promise<StatisticsTally> {
  const counted = await countTally(ex, accountId, journeyId, window);
  const { entries, profiles } = counted ?? (await logTally(ex, accountId, journeyId, window));
  return {
    entries,
    profiles,
    variants: counted?.variants ?? (await variantTally(ex, loggedEvents(ex, accountId, journeyId, window))),
    ...(await currentTally(ex, accountId, journeyId)),
  };
}

/** The figure an event counts towards (`figuresOf` in the engine package, in SQL): its kind, id and sub. */
const FIGURE_OF_EVENT = `
  CASE type
    WHEN 'journey_entered' THEN 'entered'
    WHEN 'goal_reached' THEN 'goal'
    WHEN 'journey_left' THEN 'left'
    WHEN 'stage_entered' THEN 'stage'
    WHEN 'stage_left' THEN CASE reason
      WHEN 'milestone' THEN 'next' WHEN 'goal' THEN 'toGoal' WHEN 'exit_segment' THEN 'toExit' WHEN 'exit_after' THEN 'toExit'
    END
    WHEN 'milestone_reached' THEN 'milestone'
    WHEN 'exit_matched' THEN 'exit'
    WHEN 'step_entered' THEN 'step'
    WHEN 'branch_taken' THEN 'branch'
  END AS k,
  CASE type
    WHEN 'journey_entered' THEN '' WHEN 'goal_reached' THEN ''
    WHEN 'journey_left' THEN COALESCE(reason, '')
    WHEN 'step_entered' THEN COALESCE(step_id, '')
    WHEN 'branch_taken' THEN COALESCE(branch_id, '')
    ELSE COALESCE(stage_id, '')
  END AS id,
  CASE type WHEN 'exit_matched' THEN CAST(criterion_index AS TEXT) ELSE '' END AS sub`;

/**
 * The window's entries and distinct profiles per figure counted over the event log, in one pass over the window's
 * range of the log's (journey_id, at) index: for a window the counts cannot answer (countTally.ts).
 */
export async function logTally(
  ex: Executor,
  accountId: number,
  journeyId: number,
  window: StatisticsWindow,
): Promise<FigureTally> {
  const figures = await many<FigureRow>(
    ex,
    sql`SELECT k, id, sub, COUNT(DISTINCT profile_key) AS n, COUNT(*) AS c
        FROM (
          SELECT profile_key, ${sql.raw(FIGURE_OF_EVENT)}
          FROM ${loggedEvents(ex, accountId, journeyId, window)} ev
        ) f
        WHERE k IS NOT NULL
        GROUP BY k, id, sub`,
  );
  // Entered and goal are figures of the whole journey: zero when nobody reached them in the window.
  const profiles = new Map<string, number>([
    [figureKey('entered', '', ''), 0],
    [figureKey('goal', '', ''), 0],
  ]);
  let entries = 0;
  for (const r of figures) {
    profiles.set(figureKey(r.k, r.id ?? '', r.sub ?? ''), Number(r.n));
    if (r.k === 'entered') entries = Number(r.c);
  }
  return { entries, profiles };
}

/**
 * Per A/B test and variant: the profiles whose first assignment in the window (in log order) went to it,
 * and how many of them reached the goal at or after that assignment, within the window.
 */
async function variantTally(ex: Executor, events: RawBuilder<unknown>): Promise<StatisticsTally['variants']> {
  const rows = await many<VariantRow>(
    ex,
    sql`WITH logged AS (SELECT * FROM ${events} ev), firsts AS (
          SELECT step_id, profile_key, variant_id, at,
            ROW_NUMBER() OVER (PARTITION BY step_id, profile_key ORDER BY id, ord) AS rn
          FROM logged
          WHERE type = 'variant_assigned' AND variant_id IS NOT NULL AND variant_id <> ''
        ), goals AS (
          SELECT profile_key, MAX(at) AS at FROM logged WHERE type = 'goal_reached' GROUP BY profile_key
        )
        SELECT f.step_id, f.variant_id, COUNT(*) AS n, SUM(CASE WHEN g.at >= f.at THEN 1 ELSE 0 END) AS goal
        FROM firsts f LEFT JOIN goals g ON g.profile_key = f.profile_key
        WHERE f.rn = 1
        GROUP BY f.step_id, f.variant_id`,
  );
  const out = new Map<string, Map<string, { profiles: number; goal: number }>>();
  for (const r of rows) {
    const step = r.step_id ?? '';
    const forTest = out.get(step) ?? new Map<string, { profiles: number; goal: number }>();
    out.set(step, forTest);
    forTest.set(r.variant_id, { profiles: Number(r.n), goal: Number(r.goal ?? 0) });
  }
  return out;
}

/** The profiles in the journey now, per stage and step, from the journey's position counts (migration 45). */
async function currentTally(ex: Executor, accountId: number, journeyId: number) {
  const currentStage = new Map<string, number>();
  const currentStep = new Map<string, number>();
  let current = 0;
  for (const p of await positionsOf(ex, accountId, journeyId)) {
    if (p.status !== 'active') continue;
    current += p.profiles;
    currentStage.set(p.stageId, (currentStage.get(p.stageId) ?? 0) + p.profiles);
    if (p.stepId !== null) currentStep.set(p.stepId, (currentStep.get(p.stepId) ?? 0) + p.profiles);
  }
  return { current, currentStage, currentStep };
}
