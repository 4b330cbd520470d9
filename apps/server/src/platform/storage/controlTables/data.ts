import type { TableDescriptions } from './kinds';

/** The tables of the data feature (scripts/tables.mjs lists each table's owner). */
export const dataTables = {
  databases: {
    id: 'integer default',
    account_id: 'integer',
    name: 'text',
    delete_protected: 'integer default',
    created_at: 'integer',
    updated_at: 'integer',
  },
  tables: {
    id: 'integer default',
    account_id: 'integer',
    database_id: 'integer',
    name: 'text',
    type: 'text default',
    schema_json: 'text default',
    count: 'integer default',
    estimated_storage_size: 'integer default',
    last_log_timestamp: 'integer null',
    counter_updated_at: 'integer null',
    expire_days: 'integer null',
    include_v: 'integer default',
    created_at: 'integer',
    updated_at: 'integer',
  },
  ingest_days: {
    account_id: 'integer',
    day: 'integer',
    records: 'integer',
  },
} as const satisfies TableDescriptions;
