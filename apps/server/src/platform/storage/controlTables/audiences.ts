import type { TableDescriptions } from './kinds';

/** The tables of the audiences feature (scripts/tables.mjs lists each table's owner). */
export const audiencesTables = {
  parent_segments: {
    id: 'integer default',
    account_id: 'integer',
    name: 'text',
    description: 'text default',
    schedule_type: 'text default',
    schedule_option: 'text null',
    timezone: 'text default',
    definition_json: 'text',
    root_folder_id: 'integer null',
    population: 'integer default',
    matrix_updated_at: 'integer null',
    built_json: 'text null',
    build_job_id: 'integer null',
    created_by: 'integer null',
    updated_by: 'integer null',
    created_at: 'integer',
    updated_at: 'integer',
  },
  segments: {
    id: 'integer default',
    account_id: 'integer',
    parent_segment_id: 'integer',
    folder_id: 'integer',
    name: 'text',
    description: 'text default',
    rule_json: 'text',
    created_by: 'integer null',
    updated_by: 'integer null',
    created_at: 'integer',
    updated_at: 'integer',
  },
} as const satisfies TableDescriptions;
