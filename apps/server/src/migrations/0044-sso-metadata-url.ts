import type { Migration } from '../platform/db';

/**
 * IdP metadata by URL (decision 0049): the URL the SSO setting follows, when it was last fetched, when a
 * fetch last succeeded and why the last one failed; and when each signing certificate was first seen
 * (`cert_seen`, JSON `{sha256 fingerprint: ms}`), which tells the new certificate of a rollover from the
 * old one. Version 44 is the number this round was given.
 */
export const ssoMetadataUrl: Migration = {
  version: 44,
  name: 'sso setting metadata url and certificate first sightings',
  sqlite: `
    ALTER TABLE sso_settings ADD COLUMN metadata_url TEXT;
    ALTER TABLE sso_settings ADD COLUMN metadata_checked_at INTEGER;
    ALTER TABLE sso_settings ADD COLUMN metadata_refreshed_at INTEGER;
    ALTER TABLE sso_settings ADD COLUMN metadata_error TEXT;
    ALTER TABLE sso_settings ADD COLUMN cert_seen TEXT;
  `,
  postgres: `
    ALTER TABLE sso_settings ADD COLUMN metadata_url TEXT;
    ALTER TABLE sso_settings ADD COLUMN metadata_checked_at BIGINT;
    ALTER TABLE sso_settings ADD COLUMN metadata_refreshed_at BIGINT;
    ALTER TABLE sso_settings ADD COLUMN metadata_error TEXT;
    ALTER TABLE sso_settings ADD COLUMN cert_seen TEXT;
  `,
};
