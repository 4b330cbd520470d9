import type { Migration } from '../platform/db';

/**
 * Each figure of a journey's statistics counted per day (decision 0054): how many times profiles reached it on
 * `day` (Unix days, UTC) whose previous time at that figure fell on `prev_day` (-1: never before; -2: before,
 * on a day the run could not know without reading the profile's history, i.e. a later entry). A window of whole
 * days then counts distinct profiles as the rows of its days whose previous day lies before the window, so the
 * statistics read a few rows per day instead of the event log. `kind = 'later'` rows count a day's events of
 * re-entries. `journey_ab_days`: per A/B test and variant, the profiles assigned on `day` in their first entry and
 * the day that entry reached the goal (-1: not yet). Kept by the run that writes the events
 * (journey-engine/store.ts `saveRun`); filled here from the log already written, where every previous time is known.
 */
const FIGURE_EVENTS = `
  SELECT account_id, journey_id, profile_key, at, id, 'entered' AS kind, '' AS fid, '' AS sub
    FROM journey_profile_events WHERE type = 'journey_entered'
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'goal', '', ''
    FROM journey_profile_events WHERE type = 'goal_reached'
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'left', COALESCE(reason, ''), ''
    FROM journey_profile_events WHERE type = 'journey_left'
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'stage', COALESCE(stage_id, ''), ''
    FROM journey_profile_events WHERE type = 'stage_entered'
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'next', COALESCE(stage_id, ''), ''
    FROM journey_profile_events WHERE type = 'stage_left' AND reason = 'milestone'
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'toGoal', COALESCE(stage_id, ''), ''
    FROM journey_profile_events WHERE type = 'stage_left' AND reason = 'goal'
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'toExit', COALESCE(stage_id, ''), ''
    FROM journey_profile_events WHERE type = 'stage_left' AND reason IN ('exit_segment', 'exit_after')
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'milestone', COALESCE(stage_id, ''), ''
    FROM journey_profile_events WHERE type = 'milestone_reached'
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'exit', COALESCE(stage_id, ''),
      COALESCE(CAST(criterion_index AS TEXT), '')
    FROM journey_profile_events WHERE type = 'exit_matched'
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'step', COALESCE(step_id, ''), ''
    FROM journey_profile_events WHERE type = 'step_entered'
  UNION ALL SELECT account_id, journey_id, profile_key, at, id, 'branch', COALESCE(branch_id, ''), ''
    FROM journey_profile_events WHERE type = 'branch_taken'`;

/** Each event with the entry of its profile it belongs to (1 the first; 0 before any). */
const BY_ENTRY = `
  SELECT account_id, journey_id, profile_key, at, type, step_id, variant_id, kept,
    SUM(CASE WHEN type = 'journey_entered' THEN 1 ELSE 0 END)
      OVER (PARTITION BY journey_id, profile_key ORDER BY at, id ROWS UNBOUNDED PRECEDING) AS entry
  FROM journey_profile_events`;

const FILL = `
  INSERT INTO journey_figure_days (account_id, journey_id, kind, fid, sub, day, prev_day, n)
    WITH f AS (${FIGURE_EVENTS}),
    o AS (
      SELECT account_id, journey_id, kind, fid, sub, at / 86400000 AS day,
        LAG(at) OVER (PARTITION BY journey_id, profile_key, kind, fid, sub ORDER BY at, id) AS prev
      FROM f
    )
    SELECT account_id, journey_id, kind, fid, sub, day, COALESCE(prev / 86400000, -1), COUNT(*)
    FROM o GROUP BY account_id, journey_id, kind, fid, sub, day, COALESCE(prev / 86400000, -1);
  INSERT INTO journey_figure_days (account_id, journey_id, kind, fid, sub, day, prev_day, n)
    WITH e AS (${BY_ENTRY})
    SELECT account_id, journey_id, 'later', '', '', at / 86400000, -1, COUNT(*) FROM e WHERE entry > 1
    GROUP BY account_id, journey_id, at / 86400000;
  INSERT INTO journey_ab_days (account_id, journey_id, step_id, variant_id, day, goal_day, n)
    WITH e AS (${BY_ENTRY}),
    g AS (
      SELECT journey_id, profile_key, MIN(at) AS at FROM e WHERE entry = 1 AND type = 'goal_reached'
      GROUP BY journey_id, profile_key
    )
    SELECT a.account_id, a.journey_id, a.step_id, a.variant_id, a.at / 86400000, COALESCE(g.at / 86400000, -1),
      COUNT(*)
    FROM e a LEFT JOIN g ON g.journey_id = a.journey_id AND g.profile_key = a.profile_key
    WHERE a.entry = 1 AND a.type = 'variant_assigned' AND a.step_id IS NOT NULL AND a.step_id <> ''
      AND a.variant_id IS NOT NULL AND a.variant_id <> '' AND (a.kept IS NULL OR a.kept = 0)
    GROUP BY a.account_id, a.journey_id, a.step_id, a.variant_id, a.at / 86400000, COALESCE(g.at / 86400000, -1);`;

export const journeyFigureDays: Migration = {
  version: 46,
  name: 'journey figures and A/B tallies per day',
  sqlite: `
    CREATE TABLE journey_figure_days (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      fid TEXT NOT NULL,
      sub TEXT NOT NULL,
      day INTEGER NOT NULL,
      prev_day INTEGER NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (account_id, journey_id, day, kind, fid, sub, prev_day)
    ) WITHOUT ROWID;
    CREATE TABLE journey_ab_days (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      step_id TEXT NOT NULL,
      variant_id TEXT NOT NULL,
      day INTEGER NOT NULL,
      goal_day INTEGER NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (account_id, journey_id, day, step_id, variant_id, goal_day)
    ) WITHOUT ROWID;
    ${FILL}
  `,
  postgres: `
    CREATE TABLE journey_figure_days (
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      kind TEXT NOT NULL,
      fid TEXT NOT NULL,
      sub TEXT NOT NULL,
      day BIGINT NOT NULL,
      prev_day BIGINT NOT NULL,
      n BIGINT NOT NULL,
      PRIMARY KEY (account_id, journey_id, day, kind, fid, sub, prev_day),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    CREATE TABLE journey_ab_days (
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      step_id TEXT NOT NULL,
      variant_id TEXT NOT NULL,
      day BIGINT NOT NULL,
      goal_day BIGINT NOT NULL,
      n BIGINT NOT NULL,
      PRIMARY KEY (account_id, journey_id, day, step_id, variant_id, goal_day),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    ${FILL}
  `,
};
