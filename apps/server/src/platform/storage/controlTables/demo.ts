import type { TableDescriptions } from './kinds';

/** The tables of the demo feature (scripts/tables.mjs lists each table's owner). */
export const demoTables = {
  demo_items: {
    account_id: 'integer',
    kind: 'text',
    ref: 'text',
    label: 'text',
    created_at: 'integer',
  },
} as const satisfies TableDescriptions;
