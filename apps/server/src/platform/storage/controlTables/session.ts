import type { TableDescriptions } from './kinds';

/** The tables of the session feature (scripts/tables.mjs lists each table's owner). */
export const sessionTables = {
  console_sessions: {
    id_hash: 'blob',
    account_id: 'integer',
    user_id: 'integer',
    created_at: 'integer',
    last_seen_at: 'integer',
    revoked_at: 'integer null',
    method: 'text default',
    administrator: 'integer null',
  },
  login_failures: {
    id: 'integer default',
    email: 'text',
    address: 'text',
    at: 'integer',
  },
  login_notices: {
    id: 'integer default',
    account_id: 'integer',
    user_id: 'integer',
    at: 'integer',
    address: 'text',
    failures: 'integer',
    seen_at: 'integer null',
  },
} as const satisfies TableDescriptions;
