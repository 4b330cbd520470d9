import type { TableDescriptions } from './kinds';

/** The tables of the schedules feature (scripts/tables.mjs lists each table's owner). */
export const schedulesTables = {
  schedules: {
    id: 'integer default',
    account_id: 'integer',
    user_id: 'integer null',
    name: 'text',
    cron: 'text null',
    timezone: 'text default',
    delay: 'integer default',
    type: 'text',
    database_name: 'text',
    query: 'text',
    priority: 'integer default',
    retry_limit: 'integer default',
    result: 'text default',
    engine_version: 'text null',
    fired_through: 'integer',
    created_at: 'integer',
    updated_at: 'integer',
    paused_at: 'integer null',
  },
} as const satisfies TableDescriptions;
