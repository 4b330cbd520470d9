import type { Migration } from '../platform/db';

/**
 * The demo: what the first start created in an account, one row per item (a database, a result connection,
 * a parent segment, a journey, a query job), so the console can say what is there and delete it in one
 * action. Times are Unix milliseconds.
 */
export const demo: Migration = {
  version: 13,
  name: 'demo items of an account',
  sqlite: `
    CREATE TABLE demo_items (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      kind TEXT NOT NULL CHECK (kind IN ('database', 'connection', 'parentSegment', 'journey', 'queryJob')),
      ref TEXT NOT NULL,
      label TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (account_id, kind, ref)
    );
  `,
  postgres: `
    CREATE TABLE demo_items (
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      kind TEXT NOT NULL CHECK (kind IN ('database', 'connection', 'parentSegment', 'journey', 'queryJob')),
      ref TEXT NOT NULL,
      label TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, kind, ref)
    );
  `,
};
