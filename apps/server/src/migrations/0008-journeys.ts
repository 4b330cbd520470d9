import type { Migration } from '../platform/db';

/**
 * Journeys: the journey documents (stages and steps as JSON, the columns the API filters or locks on
 * beside it), stage ids (allocated here so they are integers, as segment rules name them), activations
 * (journeyActivationSteps, "syndications"), journey events (pause periods recorded on resume) and folder
 * permissions per user. Parent segments and folders belong to the audiences feature; their ids are kept
 * as text and resolved through its lookup, so this migration does not depend on its tables. Ids are
 * AUTOINCREMENT so a deleted journey's id (which the engine's records may still name) is never reused.
 */
export const journeys: Migration = {
  version: 8,
  name: 'journeys, journey stages, activations, journey events, folder permissions',
  up: `
    CREATE TABLE journeys (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      parent_segment_id TEXT NOT NULL,
      folder_id TEXT NOT NULL,
      name TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('draft', 'launched')),
      paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
      document TEXT NOT NULL,
      created_by INTEGER,
      updated_by INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      launched_at INTEGER,
      paused_at INTEGER
    );
    CREATE INDEX journeys_account_folder ON journeys(account_id, folder_id);
    CREATE INDEX journeys_account_parent ON journeys(account_id, parent_segment_id);

    CREATE TABLE journey_stages (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE
    );
    CREATE INDEX journey_stages_journey ON journey_stages(journey_id);

    CREATE TABLE journey_activations (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      params TEXT NOT NULL,
      created_by INTEGER,
      updated_by INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX journey_activations_journey ON journey_activations(account_id, journey_id);

    CREATE TABLE journey_events (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      journey_id INTEGER NOT NULL REFERENCES journeys(id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      at INTEGER NOT NULL,
      user_id INTEGER,
      started_at INTEGER,
      ended_at INTEGER,
      details TEXT
    );
    CREATE INDEX journey_events_journey ON journey_events(account_id, journey_id, id);

    CREATE TABLE folder_permissions (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      folder_id TEXT NOT NULL,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      permission TEXT NOT NULL CHECK (permission IN ('full_control', 'view')),
      granted_by INTEGER,
      granted_at INTEGER NOT NULL,
      PRIMARY KEY (account_id, folder_id, user_id)
    );
    CREATE INDEX folder_permissions_user ON folder_permissions(account_id, user_id);
  `,
};
