import { z } from 'zod';

/**
 * Wire shapes of the data catalog (`/v3/database/*`, `/v3/table/*`) and of record ingestion
 * (`/postback/v3/event/*`, the browser SDKs' `POST /:db/:table`). Field types follow the spec,
 * wire-compat §1.6/§2.1/§2.2 and td-api-v3.openapi.yml: timestamps are strings, `schema` is a JSON string.
 */

/** Database and table names (spec; DESIGN §6). */
export const DATA_NAME = /^[a-z0-9_]{3,255}$/;
export const dataName = z
  .string()
  .regex(DATA_NAME, 'Use only lowercase letters, digits and underscores, 3 to 255 characters.');

/**
 * Names the storage engines keep for themselves: SQLite's `sqlite_*` and PostgreSQL's `pg_*` prefixes and the
 * SQL standard's `information_schema`. New databases and tables may not take them; existing objects keep
 * answering to the plain rule above, so they can still be read and deleted.
 */
export const RESERVED_DATA_NAME = /^(sqlite_|pg_|information_schema$)/;

/** Why a new database or table may not be called this, or null when it may. */
export function newDataNameProblem(name: string, what: 'database' | 'table'): string | null {
  if (!DATA_NAME.test(name)) {
    return `The ${what} name "${name.slice(0, 64)}" is not valid: use only lowercase letters, digits and underscores, 3 to 255 characters.`;
  }
  if (RESERVED_DATA_NAME.test(name)) {
    return `The ${what} name "${name}" is reserved by the storage engines (names starting with "sqlite_" or "pg_", and "information_schema"); choose another name.`;
  }
  return null;
}

/** `2024-01-01 00:00:00 UTC`, the /v3 object form. */
export const v3Timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
/** `2024-01-01 00:00:00 +0000`, the form the database list shows. */
export const v3OffsetTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);

/** GET /v3/database/show/:db. `count` is the number of records in all its tables. */
export const databaseObject = z.object({
  id: z.string(),
  name: z.string(),
  created_at: v3Timestamp,
  updated_at: v3Timestamp,
  count: z.number().int(),
  organization: z.string().nullable(),
  permission: z.string(),
  delete_protected: z.boolean(),
  datatank: z.boolean(),
});
export type Database = z.infer<typeof databaseObject>;

/**
 * An item of GET /v3/database/list: the spec's name, count, created_at, updated_at and organization, and
 * `permission`, without which td-client-ruby's Database model fails (`permission.to_sym` on nil), and with it
 * `td db:list` and every CLI command that names a database (decision 0024).
 */
export const databaseListItem = z.strictObject({
  name: z.string(),
  count: z.number().int(),
  created_at: v3OffsetTimestamp,
  updated_at: v3OffsetTimestamp,
  organization: z.string().nullable(),
  permission: z.string(),
});
export type DatabaseListItem = z.infer<typeof databaseListItem>;
export const databaseList = z.object({ databases: z.array(databaseListItem) });

export const databaseReference = z.object({ database: z.string() });

/** POST /v3/database/update/:db: the only changeable setting. */
export const databaseUpdateRequest = z.object({
  delete_protected: z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]),
});

/** A table object (OAS `Table`). `last_log_timestamp` is a string, as wire-compat §1.6 requires. */
export const tableObject = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.literal('log'),
  count: z.number().int(),
  estimated_storage_size: z.number().int(),
  /** JSON array of `[name, type]` or `[name, type, alias]`, `"[]"` when empty; `time` is not listed. */
  schema: z.string(),
  expire_days: z.number().int().nullable(),
  include_v: z.boolean(),
  counter_updated_at: v3Timestamp.nullable(),
  last_log_timestamp: v3Timestamp.nullable(),
  created_at: v3Timestamp,
  updated_at: v3Timestamp,
  delete_protected: z.boolean(),
});
export type Table = z.infer<typeof tableObject>;
export const tableList = z.object({ database: z.string(), tables: z.array(tableObject) });
export const tableReference = z.object({ database: z.string(), table: z.string(), type: z.literal('log') });

/** POST /v3/table/swap/:db/:a/:b (OAS: database, table1, table2). */
export const tablesSwapped = z.strictObject({ database: z.string(), table1: z.string(), table2: z.string() });

/** PUT /v3/table/import(_with_id)/…: how long the import took, in seconds (td-client-python reads it). */
export const tableImported = z.object({
  elapsed_time: z.number(),
  database: z.string(),
  table: z.string(),
  records: z.number().int(),
  unique_id: z.string().nullable(),
  duplicate: z.boolean(),
});

/** A schema as clients send it: a JSON string or an array of `[name, type(, alias)]`. */
export const schemaParam = z.union([z.string(), z.array(z.array(z.string()))]);

/** Limits of the records API (wire-compat §2.9) and postback. */
export const ingestLimits = {
  eventsPerBatch: 500,
  recordBytes: 1024 * 1024,
  batchBytes: 5 * 1024 * 1024,
} as const;

export const ingestRecord = z.record(z.string(), z.unknown());

/** Body of `POST /:db/:table` on the ingest address (td-js-sdk). */
export const recordsRequest = z.object({
  events: z
    .array(ingestRecord)
    .min(1, 'Send at least one event.')
    .max(ingestLimits.eventsPerBatch, `Send at most ${ingestLimits.eventsPerBatch} events per request.`),
});

/** Answer of the records API: how many records were stored, once they are durable. */
export const recordsResponse = z.object({ database: z.string(), table: z.string(), imported: z.number().int() });

/** Answer of postback: an empty object, once the record is durable. */
export const postbackResponse = z.object({}).strict();
