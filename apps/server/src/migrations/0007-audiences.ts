import type { Migration } from '../platform/db';

/**
 * Parent segments (audiences), their folders and segments. A parent segment keeps its definition (master,
 * attributes, behaviors) as JSON; `built_json` is the layout of the last successful build of its profile
 * set (the "matrix", one SQLite file per parent segment under `<dataDir>/audiences/`), so rules are
 * compiled only against columns the built file really has. Times are Unix milliseconds.
 */
export const audiences: Migration = {
  version: 7,
  name: 'parent segments, folders, segments',
  up: `
    CREATE TABLE parent_segments (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      schedule_type TEXT NOT NULL DEFAULT 'none',
      schedule_option TEXT,
      timezone TEXT NOT NULL DEFAULT 'UTC',
      definition_json TEXT NOT NULL,
      root_folder_id INTEGER,
      population INTEGER NOT NULL DEFAULT 0,
      matrix_updated_at INTEGER,
      built_json TEXT,
      build_job_id INTEGER,
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX parent_segments_account ON parent_segments(account_id, id);

    CREATE TABLE folders (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      parent_segment_id INTEGER NOT NULL REFERENCES parent_segments(id) ON DELETE CASCADE,
      parent_id INTEGER REFERENCES folders(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX folders_parent ON folders(account_id, parent_id);
    CREATE INDEX folders_segment ON folders(account_id, parent_segment_id);

    CREATE TABLE segments (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      parent_segment_id INTEGER NOT NULL REFERENCES parent_segments(id) ON DELETE CASCADE,
      folder_id INTEGER NOT NULL REFERENCES folders(id),
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      rule_json TEXT NOT NULL,
      created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX segments_parent ON segments(account_id, parent_segment_id);
    CREATE INDEX segments_folder ON segments(account_id, folder_id);
  `,
};
