import type { Migration } from '../platform/db';
import { type FillGrain, figureFill } from './figureFill';

/** The logged events, a row each, with the old log's columns (figureFill), from the rows of migration 50. */
const eventsOf = (elements: string) => `ev AS MATERIALIZED (
    SELECT l.account_id, l.journey_id, l.profile_key, l.at, l.id, e.key AS ord, e.value ->> 0 AS type,
      e.value ->> 1 AS stage_id, e.value ->> 2 AS step_id, e.value ->> 3 AS branch_id, e.value ->> 4 AS variant_id,
      e.value ->> 7 AS reason, e.value ->> 8 AS criterion_index, CAST(e.value ->> 10 AS INTEGER) AS kept
    FROM journey_run_events l, ${elements}
  ), `;

const grain = (elements: string): FillGrain => ({
  source: 'ev',
  with: eventsOf(elements),
  keys: 'id, ord',
  figures: 'journey_figure_instants',
  ab: 'journey_ab_instants',
  time: 'at',
  prev: 'prev_at',
  goal: 'goal_at',
  bucket: (expr) => expr,
});

const columns = (integer: string) => `
      account_id ${integer} NOT NULL REFERENCES accounts(id),
      journey_id ${integer} NOT NULL,
      kind TEXT NOT NULL,
      fid TEXT NOT NULL,
      sub TEXT NOT NULL,
      at ${integer} NOT NULL,
      prev_at ${integer} NOT NULL,
      n ${integer} NOT NULL,
      PRIMARY KEY (account_id, journey_id, at, kind, fid, sub, prev_at)`;
const abColumns = (integer: string) => `
      account_id ${integer} NOT NULL REFERENCES accounts(id),
      journey_id ${integer} NOT NULL,
      step_id TEXT NOT NULL,
      variant_id TEXT NOT NULL,
      at ${integer} NOT NULL,
      goal_at ${integer} NOT NULL,
      n ${integer} NOT NULL,
      PRIMARY KEY (account_id, journey_id, at, step_id, variant_id, goal_at)`;
const GOAL_INDEX = 'CREATE INDEX journey_ab_instants_goal ON journey_ab_instants(account_id, journey_id, goal_at);';

/**
 * A journey's figures and A/B tallies counted per run instant as well as per day (decision 0057): the same rows
 * as migration 46's, with the instant of the run (`at`) where those have its day, and the previous time at the
 * figure (`prev_at`) or the goal's (`goal_at`) as instants too (-1 never, or not yet; -2 unknown). The day counts
 * answer the whole days of a statistics window, these its parts of days, so a window with any ends is answered
 * without reading the event log. Kept by the run that writes the events (journey-engine/figureCounts.ts); filled
 * here from the log already written, where every previous time is known.
 */
export const journeyFigureInstants: Migration = {
  version: 51,
  name: 'journey figures and A/B tallies per run instant',
  sqlite: `
    CREATE TABLE journey_figure_instants (${columns('INTEGER')},
      FOREIGN KEY (journey_id) REFERENCES journeys(id) ON DELETE CASCADE
    ) WITHOUT ROWID;
    CREATE TABLE journey_ab_instants (${abColumns('INTEGER')},
      FOREIGN KEY (journey_id) REFERENCES journeys(id) ON DELETE CASCADE
    ) WITHOUT ROWID;
    ${GOAL_INDEX}
    ${figureFill(grain('json_each(l.events) AS e'))}
  `,
  postgres: `
    CREATE TABLE journey_figure_instants (${columns('BIGINT')},
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    CREATE TABLE journey_ab_instants (${abColumns('BIGINT')},
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    ${GOAL_INDEX}
    ${figureFill(grain('jsonb_array_elements(l.events::jsonb) WITH ORDINALITY AS e(value, key)'))}
  `,
};
