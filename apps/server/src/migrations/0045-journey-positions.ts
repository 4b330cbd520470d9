import type { Migration } from '../platform/db';

/**
 * How many profiles of a journey stand at each position (decision 0052): per status (`active`, `left`), stage and
 * step (`''` for none), kept by the run that moves them (journey-engine/store.ts `saveRun`, in the same
 * transaction as the states), so "in the journey now" and the Profiles list's total are a few rows, not a count
 * over millions of states. Filled here from the states already saved.
 */
export const journeyPositions: Migration = {
  version: 45,
  name: 'journey position counts',
  sqlite: `
    CREATE TABLE journey_positions (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      status TEXT NOT NULL CHECK (status IN ('active', 'left')),
      stage_id TEXT NOT NULL,
      step_id TEXT NOT NULL,
      profiles INTEGER NOT NULL,
      PRIMARY KEY (account_id, journey_id, status, stage_id, step_id)
    ) WITHOUT ROWID;
    INSERT INTO journey_positions (account_id, journey_id, status, stage_id, step_id, profiles)
      SELECT account_id, journey_id, status, stage_id, COALESCE(step_id, ''), COUNT(*)
      FROM journey_profile_states GROUP BY account_id, journey_id, status, stage_id, COALESCE(step_id, '');
  `,
  postgres: `
    CREATE TABLE journey_positions (
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      journey_id BIGINT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'left')),
      stage_id TEXT NOT NULL,
      step_id TEXT NOT NULL,
      profiles BIGINT NOT NULL,
      PRIMARY KEY (account_id, journey_id, status, stage_id, step_id),
      FOREIGN KEY (account_id, journey_id) REFERENCES journeys(account_id, id) ON DELETE CASCADE
    );
    INSERT INTO journey_positions (account_id, journey_id, status, stage_id, step_id, profiles)
      SELECT account_id, journey_id, status, stage_id, COALESCE(step_id, ''), COUNT(*)
      FROM journey_profile_states GROUP BY account_id, journey_id, status, stage_id, COALESCE(step_id, '');
  `,
};
