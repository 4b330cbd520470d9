import type { TableDescriptions } from './kinds';

/** The tables the storage layer itself keeps (schedule firings, settings such as the secret's print). */
export const platformTables = {
  schedule_slots: {
    key: 'text',
    slot_at: 'integer',
    claimed_at: 'integer',
  },
  service_settings: {
    name: 'text',
    value: 'text',
  },
} as const satisfies TableDescriptions;
