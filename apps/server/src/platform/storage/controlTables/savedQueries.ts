import type { TableDescriptions } from './kinds';

/** The tables of the saved-queries feature (scripts/tables.mjs lists each table's owner). */
export const savedQueriesTables = {
  saved_queries: {
    id: 'integer default',
    account_id: 'integer',
    user_id: 'integer null',
    name: 'text',
    description: 'text default',
    type: 'text',
    database_name: 'text',
    query: 'text',
    last_job_id: 'integer null',
    last_run_at: 'integer null',
    created_at: 'integer',
    updated_at: 'integer',
  },
} as const satisfies TableDescriptions;
