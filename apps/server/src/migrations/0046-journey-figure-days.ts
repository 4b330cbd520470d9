import type { Migration } from '../platform/db';
import { figureFill } from './figureFill';

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
const FILL = figureFill({
  source: 'journey_profile_events',
  with: '',
  keys: 'id',
  figures: 'journey_figure_days',
  ab: 'journey_ab_days',
  time: 'day',
  prev: 'prev_day',
  goal: 'goal_day',
  bucket: (expr) => `${expr} / 86400000`,
});

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
