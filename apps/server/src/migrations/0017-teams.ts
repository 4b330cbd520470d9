import type { Migration } from '../platform/db';

/**
 * Teams (issue 20):
 * - the account's default folder permission: what members have where no grant says otherwise (View, as
 *   before, unless an administrator changes it);
 * - API keys get a name (keys made before are called "Key <id>") and an optional expiry;
 * - the audit log is append-only in the database too: UPDATE and DELETE of its rows raise an error (no code
 *   path does either), and indexes serve its filters by action, actor and time.
 *
 * PostgreSQL: the trigger only raises, so it touches no other row or shard; on Citus, distributing a table
 * with a trigger needs `citus.enable_unsafe_triggers` (see ARCHITECTURE.md, "Distribution").
 */
export const teams: Migration = {
  version: 17,
  name: 'default folder permission, api key names and expiry, append-only audit log',
  sqlite: `
    ALTER TABLE accounts ADD COLUMN default_folder_permission TEXT NOT NULL DEFAULT 'view'
      CHECK (default_folder_permission IN ('view', 'full_control'));

    ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT '';
    UPDATE api_keys SET name = 'Key ' || id;
    ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;

    CREATE INDEX audit_events_action ON audit_events(account_id, action, id);
    CREATE INDEX audit_events_at ON audit_events(account_id, at);

    CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
    BEGIN
      SELECT RAISE(ABORT, 'The audit log is append-only: its entries cannot be changed.');
    END;
    CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
    BEGIN
      SELECT RAISE(ABORT, 'The audit log is append-only: its entries cannot be deleted.');
    END;
  `,
  postgres: `
    ALTER TABLE accounts ADD COLUMN default_folder_permission TEXT NOT NULL DEFAULT 'view'
      CHECK (default_folder_permission IN ('view', 'full_control'));

    ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT '';
    UPDATE api_keys SET name = 'Key ' || id;
    ALTER TABLE api_keys ADD COLUMN expires_at BIGINT;

    CREATE INDEX audit_events_action ON audit_events(account_id, action, id);
    CREATE INDEX audit_events_at ON audit_events(account_id, at);

    CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'The audit log is append-only: its entries cannot be changed or deleted.'
        USING ERRCODE = 'insufficient_privilege';
    END;
    $$;
    CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
      FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
    CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
      FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
  `,
};
