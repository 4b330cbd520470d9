import type { TableDescriptions } from './kinds';

/** The tables of the bulk-loads feature (scripts/tables.mjs lists each table's owner). */
export const bulkLoadsTables = {
  bulk_loads: {
    id: 'integer default',
    account_id: 'integer',
    name: 'text',
    database_name: 'text',
    table_name: 'text',
    cron: 'text null',
    timezone: 'text default',
    delay: 'integer default',
    start_at: 'integer null',
    time_column: 'text null',
    config_json: 'text',
    config_diff_json: 'text default',
    created_at: 'integer',
    updated_at: 'integer',
    user_id: 'integer null',
    integration_id: 'integer null',
    last_fired_at: 'integer null',
    resync_requested_at: 'integer null',
  },
} as const satisfies TableDescriptions;
