import type { Migration } from '../platform/db';

/**
 * Jobs across nodes and schedules that fire once (issue 16): `jobs.runner` is the node that claimed a job
 * (its restart recovery ends only its own), `jobs.kill_requested_at` asks the owning node to kill a job
 * another node was asked to kill, and `schedule_slots` records which node took each firing of a schedule
 * (platform/storage/slots.ts). `job_results` holds query results in parts where every node must read them
 * (the PostgreSQL backend; SQLite keeps them as files, jobs/resultStore.ts). Times are Unix milliseconds.
 */
export const jobRunners: Migration = {
  version: 14,
  name: 'job runners, schedule slots and job results',
  sqlite: `
    ALTER TABLE jobs ADD COLUMN runner TEXT;
    ALTER TABLE jobs ADD COLUMN kill_requested_at INTEGER;
    CREATE INDEX jobs_running ON jobs(status, runner);
    CREATE TABLE schedule_slots (
      key TEXT NOT NULL,
      slot_at INTEGER NOT NULL,
      claimed_at INTEGER NOT NULL,
      PRIMARY KEY (key, slot_at)
    );
    CREATE TABLE job_results (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      job_id INTEGER NOT NULL,
      format TEXT NOT NULL CHECK (format IN ('msgpack', 'gzip')),
      part INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      PRIMARY KEY (account_id, job_id, format, part)
    );
  `,
  postgres: `
    ALTER TABLE jobs ADD COLUMN runner TEXT;
    ALTER TABLE jobs ADD COLUMN kill_requested_at BIGINT;
    CREATE INDEX jobs_running ON jobs(status, runner);
    CREATE TABLE schedule_slots (
      key TEXT NOT NULL,
      slot_at BIGINT NOT NULL,
      claimed_at BIGINT NOT NULL,
      PRIMARY KEY (key, slot_at)
    );
    CREATE TABLE job_results (
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      job_id BIGINT NOT NULL,
      format TEXT NOT NULL CHECK (format IN ('msgpack', 'gzip')),
      part BIGINT NOT NULL,
      bytes BYTEA NOT NULL,
      PRIMARY KEY (account_id, job_id, format, part)
    );
  `,
};
