import type { Migration } from '../platform/db';

/**
 * Drops `journey_profile_events_type` (migration 33). The statistics read the day counts (decision 0054); what is
 * still counted over the log (a window's part inside one day, the A/B tallies of windows with re-entries) reads
 * the window's range of `journey_profile_events_time` once (figures.ts `logTally`). Every event a run writes was
 * kept in this index too: at 1 M profiles, a run where everyone enters took about a sixth less without it
 * (docs/benchmarks.md).
 */
export const journeyEventsTypeIndex: Migration = {
  version: 48,
  name: 'journey events: the index by type dropped',
  sqlite: 'DROP INDEX IF EXISTS journey_profile_events_type;',
  postgres: 'DROP INDEX IF EXISTS journey_profile_events_type;',
};
