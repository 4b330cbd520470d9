import type { Migration } from '../platform/db';

/**
 * Bulk import files every node reads (decision 0022): on PostgreSQL, nodes have data folders of their own, so a
 * part uploaded to one node, and the staged rows and error records a perform wrote on another, are kept here
 * in parts of 1 MiB under their path relative to the data folder (bulk-import/sharedFiles.ts). SQLite (one
 * node) keeps them as files and leaves the table empty.
 */
export const sharedBulkImportFiles: Migration = {
  version: 22,
  name: 'bulk import files shared by every node',
  sqlite: `
    CREATE TABLE bulk_import_files (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      path TEXT NOT NULL,
      part INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      PRIMARY KEY (account_id, path, part)
    );
  `,
  postgres: `
    CREATE TABLE bulk_import_files (
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      path TEXT NOT NULL,
      part BIGINT NOT NULL,
      bytes BYTEA NOT NULL,
      PRIMARY KEY (account_id, path, part)
    );
  `,
};
