import type { Migration } from '../platform/db';

/**
 * Drops `journey_profile_states_current` (migration 33): the in-journey counts it served are kept in
 * `journey_positions` (decision 0052), and the Profiles list's filters (journey, status, stage, step) are what
 * `journey_profile_states_position` already holds. Every state a run moves was kept in both; at 1 M profiles the
 * run where every wait ends took about a tenth less without it (docs/benchmarks.md).
 */
export const journeyStatesIndex: Migration = {
  version: 47,
  name: 'journey states: the duplicate position index dropped',
  sqlite: 'DROP INDEX IF EXISTS journey_profile_states_current;',
  postgres: 'DROP INDEX IF EXISTS journey_profile_states_current;',
};
