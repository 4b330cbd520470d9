import type { Migration } from '../platform/db';

/**
 * When each profile of a journey can next move without a segment membership changing (decision 0040): its
 * wait ends, an "exit after" fires, or it may re-enter at the next run. A run reads the profiles due from the
 * index instead of every state. NULL: only a membership change can move it, or not computed yet (states
 * written before this version, or by a version's handover); the first run of a journey in a process looks at
 * everyone and writes them. Version 40 follows the decision's number.
 */
export const journeyWakeTimes: Migration = {
  version: 40,
  name: 'journey wake times: when each profile can next move by time alone',
  sqlite: `
    ALTER TABLE journey_profile_states ADD COLUMN wake_at INTEGER;
    CREATE INDEX journey_profile_states_wake ON journey_profile_states(journey_id, wake_at) WHERE wake_at IS NOT NULL;
  `,
  postgres: `
    ALTER TABLE journey_profile_states ADD COLUMN wake_at BIGINT;
    CREATE INDEX journey_profile_states_wake ON journey_profile_states(journey_id, wake_at) WHERE wake_at IS NOT NULL;
  `,
};
