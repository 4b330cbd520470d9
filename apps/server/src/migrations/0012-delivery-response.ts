import type { Migration } from '../platform/db';

/** Activation deliveries record the HTTP status code a webhook answered (null for tables and CSV files). */
export const deliveryResponse: Migration = {
  version: 12,
  name: 'journey deliveries: the response code of webhook deliveries',
  sqlite: `
    ALTER TABLE journey_deliveries ADD COLUMN response_code INTEGER;
  `,
  postgres: `
    ALTER TABLE journey_deliveries ADD COLUMN response_code BIGINT;
  `,
};
