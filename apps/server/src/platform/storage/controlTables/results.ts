import type { TableDescriptions } from './kinds';

/** The tables of the results feature (scripts/tables.mjs lists each table's owner). */
export const resultsTables = {
  result_connections: {
    id: 'integer default',
    account_id: 'integer',
    name: 'text',
    url: 'text',
    created_at: 'integer',
    updated_at: 'integer',
  },
} as const satisfies TableDescriptions;
