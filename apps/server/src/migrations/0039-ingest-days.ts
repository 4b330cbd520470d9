import type { Migration } from '../platform/db';

/**
 * Rows ingested per account and UTC day (decision 0041), for the console's overview: a trigger on the catalog's
 * `tables` adds every rise of a table's `count` to the day of its write (`counter_updated_at`). Every path that
 * writes rows (postback, records API, bulk import, result output, syncs) copies its figures to the catalog
 * through one statement (data/catalogFigures.ts), so one trigger sees them all, in the same transaction as the
 * figures; a copy that failed and is made again later (next write, start-up) still adds the rise once. A
 * `replace` that ends with fewer rows adds nothing. The index on jobs by account and creation time serves the
 * overview's "jobs today by state". Version 39 follows the decision's number.
 */
export const ingestDays: Migration = {
  version: 39,
  name: 'rows ingested per account and day, kept by a trigger on the catalog figures',
  sqlite: `
    CREATE TABLE ingest_days (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      day INTEGER NOT NULL,
      records INTEGER NOT NULL,
      PRIMARY KEY (account_id, day)
    );
    CREATE INDEX jobs_account_created ON jobs(account_id, created_at);
    CREATE TRIGGER tables_ingest_days AFTER UPDATE OF count ON tables
    WHEN NEW.count > OLD.count
    BEGIN
      INSERT INTO ingest_days (account_id, day, records)
      VALUES (NEW.account_id,
              COALESCE(NEW.counter_updated_at, CAST(strftime('%s', 'now') AS INTEGER) * 1000) / 86400000,
              NEW.count - OLD.count)
      ON CONFLICT (account_id, day) DO UPDATE SET records = records + excluded.records;
    END;
  `,
  postgres: `
    CREATE TABLE ingest_days (
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      day BIGINT NOT NULL,
      records BIGINT NOT NULL,
      PRIMARY KEY (account_id, day)
    );
    CREATE INDEX jobs_account_created ON jobs(account_id, created_at);
    CREATE FUNCTION tables_ingest_days() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ingest_days (account_id, day, records)
      VALUES (NEW.account_id,
              COALESCE(NEW.counter_updated_at, (extract(epoch FROM now()) * 1000)::BIGINT) / 86400000,
              NEW.count - OLD.count)
      ON CONFLICT (account_id, day) DO UPDATE SET records = ingest_days.records + excluded.records;
      RETURN NULL;
    END $$;
    CREATE TRIGGER tables_ingest_days AFTER UPDATE OF count ON tables
      FOR EACH ROW WHEN (NEW.count > OLD.count) EXECUTE FUNCTION tables_ingest_days();
  `,
};
