import type { Migration } from '../platform/db';

/**
 * What nodes sharing one database need from it (decision 0022). `bulk_import_files`: on PostgreSQL, nodes have
 * data folders of their own, so a part uploaded to one node, and the staged rows and error records a perform
 * wrote on another, are kept here in parts of 1 MiB under their path relative to the data folder
 * (bulk-import/sharedFiles.ts); SQLite (one node) keeps them as files and leaves the table empty.
 * `service_settings`: facts about the whole service, such as the fingerprint of the secret the data was set
 * up with, which every node checks at start-up (platform/secretCheck.ts).
 */
export const sharedByNodes: Migration = {
  version: 22,
  name: 'what nodes sharing one database need: bulk import files, service settings',
  sqlite: `
    CREATE TABLE bulk_import_files (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      path TEXT NOT NULL,
      part INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      PRIMARY KEY (account_id, path, part)
    );
    CREATE TABLE service_settings (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL
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
    CREATE TABLE service_settings (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
  `,
};
