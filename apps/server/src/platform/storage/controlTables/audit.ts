import type { TableDescriptions } from './kinds';

/** The tables of the audit feature (scripts/tables.mjs lists each table's owner). */
export const auditTables = {
  audit_events: {
    id: 'integer default',
    account_id: 'integer',
    at: 'integer',
    actor_user_id: 'integer null',
    actor: 'text',
    action: 'text',
    target: 'text null',
    outcome: 'text',
    reason: 'text null',
    details: 'text null',
  },
} as const satisfies TableDescriptions;
