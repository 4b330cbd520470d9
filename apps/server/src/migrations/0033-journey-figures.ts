import type { Migration } from '../platform/db';

/**
 * Indexes the journey statistics read from (decision 0033): the events of one type of a journey by time, so
 * each figure of a window is one range of one index, and the profile states by position with the account,
 * so the "in the journey now" counts are read from the index alone. Version 33 follows the decision's number
 * (numbers in between are left to work landing at the same time).
 */
export const journeyFigures: Migration = {
  version: 33,
  name: 'journey statistics indexes: events by type and time, states by position',
  sqlite: `
    CREATE INDEX journey_profile_events_type ON journey_profile_events(journey_id, type, at);
    CREATE INDEX journey_profile_states_current ON journey_profile_states(journey_id, account_id, status, stage_id, step_id);
  `,
  postgres: `
    CREATE INDEX journey_profile_events_type ON journey_profile_events(journey_id, type, at);
    CREATE INDEX journey_profile_states_current ON journey_profile_states(journey_id, account_id, status, stage_id, step_id);
  `,
};
