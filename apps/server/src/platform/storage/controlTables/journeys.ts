import type { TableDescriptions } from './kinds';

/** The tables of the journeys feature (scripts/tables.mjs lists each table's owner). */
export const journeysTables = {
  journeys: {
    id: 'integer default',
    account_id: 'integer',
    parent_segment_id: 'text',
    folder_id: 'text',
    name: 'text',
    state: 'text',
    paused: 'integer default',
    document: 'text',
    created_by: 'integer null',
    updated_by: 'integer null',
    created_at: 'integer',
    updated_at: 'integer',
    launched_at: 'integer null',
    paused_at: 'integer null',
    version_of: 'text null',
    replaced_by: 'integer null',
  },
  journey_stages: {
    id: 'integer default',
    account_id: 'integer',
    journey_id: 'integer',
  },
  journey_events: {
    id: 'integer default',
    account_id: 'integer',
    journey_id: 'integer',
    kind: 'text',
    at: 'integer',
    user_id: 'integer null',
    started_at: 'integer null',
    ended_at: 'integer null',
    details: 'text null',
  },
  journey_activations: {
    id: 'integer default',
    account_id: 'integer',
    journey_id: 'integer',
    params: 'text',
    created_by: 'integer null',
    updated_by: 'integer null',
    created_at: 'integer',
    updated_at: 'integer',
  },
} as const satisfies TableDescriptions;
