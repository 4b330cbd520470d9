import type { Migration } from '../platform/db';

/**
 * SSO found by e-mail domain and Test SSO details (decision 0037): the e-mail domains an account claims,
 * unique across accounts (a domain names at most one identity provider), and what the last Test SSO
 * asserted. On Citus `sso_domains` is a reference table: small, written rarely, read by domain at sign-in.
 * Version 37 follows the decision's number.
 */
export const ssoDomains: Migration = {
  version: 37,
  name: 'sso domains claimed by accounts, last test sso details',
  sqlite: `
    CREATE TABLE sso_domains (
      domain TEXT PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES accounts(id),
      claimed_by TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX sso_domains_account ON sso_domains(account_id, domain);
    ALTER TABLE sso_settings ADD COLUMN last_test TEXT;
  `,
  postgres: `
    CREATE TABLE sso_domains (
      domain TEXT PRIMARY KEY,
      account_id BIGINT NOT NULL REFERENCES accounts(id),
      claimed_by TEXT NOT NULL,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX sso_domains_account ON sso_domains(account_id, domain);
    ALTER TABLE sso_settings ADD COLUMN last_test TEXT;
  `,
};
