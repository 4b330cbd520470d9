import { z } from 'zod';

/**
 * Wire shapes of bulk import (`/v3/bulk_import/*`), result connections (`/v3/result/*`) and bulk load
 * sessions (`/v3/bulk_loads*`): the spec, wire-compat §2.4–§2.6 and td-api-v3.openapi.yml.
 */

/** Bulk import session names: letters, digits, `_`, `-` and `.`, as the CLI derives them from file names. */
export const BULK_IMPORT_NAME = /^[A-Za-z0-9_.-]{1,255}$/;
export const bulkImportName = z
  .string()
  .regex(BULK_IMPORT_NAME, 'Use letters, digits, "_", "-" and "." only, 1 to 255 characters.');

/** Part names are chosen by clients (file basenames): 1 to 255 characters, no "/" and no control characters. */
export const PART_NAME = /^[^/]{1,255}$/;
const PART_NAME_RULE = 'Part names are 1 to 255 characters, without "/" or control characters.';
export const isPartName = (name: string) =>
  PART_NAME.test(name) && ![...name].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || ch === '\u007f');
export const partName = z.string().regex(PART_NAME, PART_NAME_RULE).refine(isPartName, PART_NAME_RULE);

/** The life cycle of a session, in order (wire-compat §1.6: exactly these words). */
export const bulkImportStatus = z.enum(['uploading', 'performing', 'ready', 'committing', 'committed']);
export type BulkImportStatus = z.infer<typeof bulkImportStatus>;

/** GET /v3/bulk_import/show/:session. The counts are null until a perform has finished. */
export const bulkImportSession = z.object({
  name: z.string(),
  database: z.string(),
  table: z.string(),
  status: bulkImportStatus,
  upload_frozen: z.boolean(),
  job_id: z.number().int().nullable(),
  valid_records: z.number().int().nullable(),
  error_records: z.number().int().nullable(),
  valid_parts: z.number().int().nullable(),
  error_parts: z.number().int().nullable(),
});
export type BulkImportSession = z.infer<typeof bulkImportSession>;
export const bulkImportList = z.object({ bulk_imports: z.array(bulkImportSession) });

/** The answer of create, upload_part, freeze, unfreeze, commit, delete and delete_part. */
export const bulkImportReference = z.object({ name: z.string(), bulk_import: z.string() });
export const bulkImportPerformed = bulkImportReference.extend({ job_id: z.number().int() });
export const bulkImportParts = bulkImportReference.extend({ parts: z.array(z.string()) });

/** GET /v3/result/list: `url` has any credential masked. */
export const resultConnection = z.object({
  name: z.string(),
  url: z.string(),
  organization: z.string().nullable(),
});
export const resultList = z.object({ results: z.array(resultConnection) });
export const resultReference = z.object({ name: z.string(), result: z.string() });

/** Result connection names. */
export const RESULT_NAME = /^[A-Za-z0-9_-]{1,255}$/;
export const resultName = z.string().regex(RESULT_NAME, 'Use letters, digits, "_" and "-" only, 1 to 255 characters.');

/** Bulk load session names; no "." so that a `.json` suffix is never part of a name. */
export const BULK_LOAD_NAME = /^[A-Za-z0-9_-]{1,255}$/;
export const bulkLoadName = z
  .string()
  .regex(BULK_LOAD_NAME, 'Use letters, digits, "_" and "-" only, 1 to 255 characters.');

/** A bulk load session's configuration: open objects, with the keys the service itself reads checked. */
export const bulkLoadConfig = z.looseObject({
  in: z.looseObject({
    type: z.string({ error: 'Give "config.in.type": the kind of source, e.g. "s3" or "postgresql".' }).min(1),
  }),
  out: z
    .looseObject({
      mode: z.enum(['append', 'replace'], { error: '"config.out.mode" must be "append" or "replace".' }).optional(),
    })
    .optional(),
  filters: z.array(z.looseObject({ type: z.string() })).optional(),
  exec: z.looseObject({}).optional(),
});
export type BulkLoadConfig = z.infer<typeof bulkLoadConfig>;

/**
 * A session's `config` as reads show it (spec "Bulk load session"): `in` (credentials masked, `start_time`),
 * `filters`, `exec` (always an object) and `out` with `time_column` always set: the column the time comes
 * from, or the `add_time` filter's target (`time`) when the upload time is used.
 */
export const bulkLoadWireConfig = z.looseObject({
  in: z.looseObject({ type: z.string(), start_time: z.string() }),
  filters: z.array(z.looseObject({ type: z.string() })).optional(),
  exec: z.looseObject({}),
  out: z.looseObject({
    type: z.string(),
    plazma_dataset: z.string(),
    mode: z.string(),
    time_column: z.string(),
  }),
});
export type BulkLoadWireConfig = z.infer<typeof bulkLoadWireConfig>;

/** A bulk load session (spec "Bulk load session"; OAS `BulkLoadSession`). Credentials in `config.in` are masked. */
export const bulkLoadSession = z.object({
  id: z.number().int(),
  name: z.string(),
  cron: z.string().nullable(),
  timezone: z.string(),
  delay: z.number().int(),
  start_at: z.string().nullable(),
  database: z.string(),
  table: z.string(),
  config: bulkLoadWireConfig,
  config_diff: z.record(z.string(), z.unknown()),
});
export type BulkLoadSession = z.infer<typeof bulkLoadSession>;

/** A job a bulk load session ran (spec "Bulk load job"; OAS `BulkLoadSessionJob`). Times are Unix seconds. */
export const bulkLoadJob = z.object({
  job_id: z.number().int(),
  account_id: z.number().int(),
  type: z.literal('bulkload'),
  status: z.string(),
  records: z.number().int().nullable(),
  schema: z.array(z.array(z.string())).nullable(),
  database: z.object({ id: z.number().int(), name: z.string() }),
  table: z.object({ id: z.number().int(), name: z.string() }),
  config: z.record(z.string(), z.unknown()),
  priority: z.number().int(),
  cpu_time: z.number().int().nullable(),
  created_at: z.number().int().nullable(),
  updated_at: z.number().int().nullable(),
  start_at: z.number().int().nullable(),
  end_at: z.number().int().nullable(),
});
export type BulkLoadJob = z.infer<typeof bulkLoadJob>;

/** POST /v3/bulk_loads and PUT /v3/bulk_loads/:name (JSON). */
export const bulkLoadSettings = z.object({
  name: bulkLoadName,
  database: z.string(),
  table: z.string(),
  config: bulkLoadConfig,
  cron: z.string().nullable().optional(),
  timezone: z.string().optional(),
  delay: z.number().int().min(0).optional(),
  time_column: z.string().nullable().optional(),
});
export type BulkLoadSettings = z.input<typeof bulkLoadSettings>;
