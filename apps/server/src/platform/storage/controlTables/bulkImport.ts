import type { TableDescriptions } from './kinds';

/** The tables of the bulk-import feature (scripts/tables.mjs lists each table's owner). */
export const bulkImportTables = {
  bulk_import_sessions: {
    id: 'integer default',
    account_id: 'integer',
    user_id: 'integer null',
    name: 'text',
    database_name: 'text',
    table_name: 'text',
    status: 'text default',
    upload_frozen: 'integer default',
    job_id: 'integer null',
    valid_parts: 'integer null',
    error_parts: 'integer null',
    valid_records: 'integer null',
    error_records: 'integer null',
    dir: 'text',
    perform_token: 'text null',
    created_at: 'integer',
    updated_at: 'integer',
  },
  bulk_import_parts: {
    id: 'integer default',
    account_id: 'integer',
    session_id: 'integer',
    name: 'text',
    file: 'text',
    bytes: 'integer',
    records: 'integer',
    created_at: 'integer',
  },
  bulk_import_files: {
    account_id: 'integer',
    path: 'text',
    part: 'integer',
    bytes: 'blob',
  },
} as const satisfies TableDescriptions;
