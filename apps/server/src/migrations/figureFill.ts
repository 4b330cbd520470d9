/**
 * The SQL that fills a grain of a journey's figure and A/B counts (per day: migration 46; per run instant:
 * migration 51) from an event log with a row per event, where every previous time is known: window functions over
 * each profile's events in log order. `source` names the log (a table, or a CTE that `with` defines), with the old
 * log's columns (`account_id`, `journey_id`, `profile_key`, `at`, `type`, `stage_id`, `step_id`, `branch_id`,
 * `variant_id`, `reason`, `criterion_index`, `kept`) and `keys`, the columns that order a profile's events of one
 * time; `bucket` turns an instant into the grain's time.
 */
export interface FillGrain {
  source: string;
  with: string;
  keys: string;
  figures: string;
  ab: string;
  time: string;
  prev: string;
  goal: string;
  bucket(expr: string): string;
}

const figureEvents = (g: FillGrain) => `
  SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'entered' AS kind, '' AS fid, '' AS sub
    FROM ${g.source} WHERE type = 'journey_entered'
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'goal', '', ''
    FROM ${g.source} WHERE type = 'goal_reached'
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'left', COALESCE(reason, ''), ''
    FROM ${g.source} WHERE type = 'journey_left'
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'stage', COALESCE(stage_id, ''), ''
    FROM ${g.source} WHERE type = 'stage_entered'
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'next', COALESCE(stage_id, ''), ''
    FROM ${g.source} WHERE type = 'stage_left' AND reason = 'milestone'
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'toGoal', COALESCE(stage_id, ''), ''
    FROM ${g.source} WHERE type = 'stage_left' AND reason = 'goal'
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'toExit', COALESCE(stage_id, ''), ''
    FROM ${g.source} WHERE type = 'stage_left' AND reason IN ('exit_segment', 'exit_after')
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'milestone', COALESCE(stage_id, ''), ''
    FROM ${g.source} WHERE type = 'milestone_reached'
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'exit', COALESCE(stage_id, ''),
      COALESCE(CAST(criterion_index AS TEXT), '')
    FROM ${g.source} WHERE type = 'exit_matched'
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'step', COALESCE(step_id, ''), ''
    FROM ${g.source} WHERE type = 'step_entered'
  UNION ALL SELECT account_id, journey_id, profile_key, at, ${g.keys}, 'branch', COALESCE(branch_id, ''), ''
    FROM ${g.source} WHERE type = 'branch_taken'`;

/** Each event with the entry of its profile it belongs to (1 the first; 0 before any). */
const byEntry = (g: FillGrain) => `
  SELECT account_id, journey_id, profile_key, at, type, step_id, variant_id, kept,
    SUM(CASE WHEN type = 'journey_entered' THEN 1 ELSE 0 END)
      OVER (PARTITION BY journey_id, profile_key ORDER BY at, ${g.keys} ROWS UNBOUNDED PRECEDING) AS entry
  FROM ${g.source}`;

export const figureFill = (g: FillGrain) => `
  INSERT INTO ${g.figures} (account_id, journey_id, kind, fid, sub, ${g.time}, ${g.prev}, n)
    WITH ${g.with}f AS (${figureEvents(g)}),
    o AS (
      SELECT account_id, journey_id, kind, fid, sub, ${g.bucket('at')} AS t,
        LAG(at) OVER (PARTITION BY journey_id, profile_key, kind, fid, sub ORDER BY at, ${g.keys}) AS prev
      FROM f
    )
    SELECT account_id, journey_id, kind, fid, sub, t, COALESCE(${g.bucket('prev')}, -1), COUNT(*)
    FROM o GROUP BY account_id, journey_id, kind, fid, sub, t, COALESCE(${g.bucket('prev')}, -1);
  INSERT INTO ${g.figures} (account_id, journey_id, kind, fid, sub, ${g.time}, ${g.prev}, n)
    WITH ${g.with}e AS (${byEntry(g)})
    SELECT account_id, journey_id, 'later', '', '', ${g.bucket('at')}, -1, COUNT(*) FROM e WHERE entry > 1
    GROUP BY account_id, journey_id, ${g.bucket('at')};
  INSERT INTO ${g.ab} (account_id, journey_id, step_id, variant_id, ${g.time}, ${g.goal}, n)
    WITH ${g.with}e AS (${byEntry(g)}),
    g AS (
      SELECT journey_id, profile_key, MIN(at) AS at FROM e WHERE entry = 1 AND type = 'goal_reached'
      GROUP BY journey_id, profile_key
    )
    SELECT a.account_id, a.journey_id, a.step_id, a.variant_id, ${g.bucket('a.at')}, COALESCE(${g.bucket('g.at')}, -1),
      COUNT(*)
    FROM e a LEFT JOIN g ON g.journey_id = a.journey_id AND g.profile_key = a.profile_key
    WHERE a.entry = 1 AND a.type = 'variant_assigned' AND a.step_id IS NOT NULL AND a.step_id <> ''
      AND a.variant_id IS NOT NULL AND a.variant_id <> '' AND (a.kept IS NULL OR a.kept = 0)
    GROUP BY a.account_id, a.journey_id, a.step_id, a.variant_id, ${g.bucket('a.at')}, COALESCE(${g.bucket('g.at')}, -1);`;
