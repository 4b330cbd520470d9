import type { TableDescriptions } from './kinds';

/** The tables of the folders feature (scripts/tables.mjs lists each table's owner). */
export const foldersTables = {
  folders: {
    id: 'integer default',
    account_id: 'integer',
    parent_segment_id: 'integer',
    parent_id: 'integer null',
    name: 'text',
    created_at: 'integer',
    updated_at: 'integer',
  },
} as const satisfies TableDescriptions;
