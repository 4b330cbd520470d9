import type { Migration } from '../platform/db';

/**
 * Pausing a scheduled query (issue 31, decision 0036): `paused_at` (Unix ms) while paused, null otherwise.
 * The scheduler skips paused schedules; resuming moves `fired_through` to the moment of the resume, so the
 * slots missed while paused never fire.
 */
export const schedulePause: Migration = {
  version: 38,
  name: 'scheduled queries can be paused',
  sqlite: `ALTER TABLE schedules ADD COLUMN paused_at INTEGER;`,
  postgres: `ALTER TABLE schedules ADD COLUMN paused_at BIGINT;`,
};
