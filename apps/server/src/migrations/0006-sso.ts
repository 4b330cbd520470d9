import type { Migration } from '../platform/db';

/**
 * Single sign-on: the account's identity provider setting, each user's SSO mode and identifier, how a
 * console session was started (so SSO changes end only the right sessions), SAML requests this server
 * issued (usable once), assertion ids already accepted (replay), and the audit log.
 */
export const sso: Migration = {
  version: 6,
  name: 'sso settings, user sso modes, saml requests, audit log',
  up: `
    CREATE TABLE sso_settings (
      account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
      cert TEXT NOT NULL,
      identity_provider_name TEXT NOT NULL,
      idp_entity_id TEXT,
      sign_in_endpoint TEXT NOT NULL,
      sign_out_endpoint TEXT,
      strategy TEXT NOT NULL DEFAULT 'samlp' CHECK (strategy = 'samlp'),
      tested_at INTEGER,
      updated_at INTEGER NOT NULL
    );

    ALTER TABLE users ADD COLUMN sso_mode TEXT NOT NULL DEFAULT 'disabled'
      CHECK (sso_mode IN ('disabled', 'enabled', 'enforced'));
    ALTER TABLE users ADD COLUMN sso_identifier TEXT;
    CREATE UNIQUE INDEX users_sso_identifier ON users(account_id, sso_identifier) WHERE sso_identifier IS NOT NULL;

    ALTER TABLE console_sessions ADD COLUMN method TEXT NOT NULL DEFAULT 'password'
      CHECK (method IN ('password', 'sso'));

    CREATE TABLE saml_requests (
      relay_hash BLOB PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      request_id TEXT NOT NULL,
      purpose TEXT NOT NULL CHECK (purpose IN ('login', 'test')),
      return_to TEXT NOT NULL,
      actor_user_id INTEGER,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX saml_requests_created ON saml_requests(created_at);

    CREATE TABLE saml_seen_assertions (
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      assertion_id TEXT NOT NULL,
      seen_at INTEGER NOT NULL,
      PRIMARY KEY (account_id, assertion_id)
    );

    CREATE TABLE audit_events (
      id INTEGER PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      at INTEGER NOT NULL,
      actor_user_id INTEGER,
      actor TEXT NOT NULL,
      action TEXT NOT NULL,
      target TEXT,
      outcome TEXT NOT NULL CHECK (outcome IN ('success', 'failure')),
      reason TEXT,
      details TEXT
    );
    CREATE INDEX audit_events_account ON audit_events(account_id, id);
  `,
};
