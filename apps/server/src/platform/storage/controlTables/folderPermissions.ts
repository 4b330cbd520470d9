import type { TableDescriptions } from './kinds';

/** The tables of the folder-permissions feature (scripts/tables.mjs lists each table's owner). */
export const folderPermissionsTables = {
  folder_permissions: {
    account_id: 'integer',
    folder_id: 'text',
    user_id: 'integer',
    permission: 'text',
    granted_by: 'integer null',
    granted_at: 'integer',
  },
} as const satisfies TableDescriptions;
