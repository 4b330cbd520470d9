import type { Migration } from '../platform/db';

/**
 * Versions of a launched journey (docs/decisions/0029-journey-versions.md). `version_of`: on a draft made
 * to replace a launched journey, JSON `{journeyId, stages: {<new stage id>: <old stage id>}, activations:
 * {<old activation id>: <new activation id>}}`, what its launch needs to carry profiles over. `replaced_by`:
 * on the replaced journey, the version that took its profiles (it stays paused and cannot resume).
 */
export const journeyVersions: Migration = {
  version: 19,
  name: 'journey versions: version_of on drafts, replaced_by on replaced journeys',
  sqlite: `
    ALTER TABLE journeys ADD COLUMN version_of TEXT;
    ALTER TABLE journeys ADD COLUMN replaced_by INTEGER;
  `,
  postgres: `
    ALTER TABLE journeys ADD COLUMN version_of TEXT;
    ALTER TABLE journeys ADD COLUMN replaced_by BIGINT;
  `,
};
