import type { TableDescriptions } from './kinds';

/** The tables of the sso feature (scripts/tables.mjs lists each table's owner). */
export const ssoTables = {
  sso_settings: {
    account_id: 'integer',
    cert: 'text',
    identity_provider_name: 'text',
    idp_entity_id: 'text null',
    sign_in_endpoint: 'text',
    sign_out_endpoint: 'text null',
    strategy: 'text default',
    tested_at: 'integer null',
    updated_at: 'integer',
    last_test: 'text null',
    metadata_url: 'text null',
    metadata_checked_at: 'integer null',
    metadata_refreshed_at: 'integer null',
    metadata_error: 'text null',
    cert_seen: 'text null',
  },
  sso_domains: {
    domain: 'text',
    account_id: 'integer',
    claimed_by: 'text',
    created_at: 'integer',
  },
  saml_requests: {
    relay_hash: 'blob',
    account_id: 'integer',
    request_id: 'text',
    purpose: 'text',
    return_to: 'text',
    actor_user_id: 'integer null',
    created_at: 'integer',
  },
  saml_seen_assertions: {
    account_id: 'integer',
    assertion_id: 'text',
    seen_at: 'integer',
  },
} as const satisfies TableDescriptions;
