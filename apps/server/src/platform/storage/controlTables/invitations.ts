import type { TableDescriptions } from './kinds';

/** The tables of the invitations feature (scripts/tables.mjs lists each table's owner). */
export const invitationsTables = {
  one_time_links: {
    id: 'integer default',
    account_id: 'integer',
    kind: 'text',
    token_hash: 'blob',
    email: 'text',
    administrator: 'integer default',
    user_id: 'integer null',
    created_by: 'text',
    created_at: 'integer',
    expires_at: 'integer',
    used_at: 'integer null',
    revoked_at: 'integer null',
    emailed_at: 'integer null',
  },
} as const satisfies TableDescriptions;
