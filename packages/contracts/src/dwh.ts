import { z } from 'zod';

/**
 * Wire shapes of the data-warehouse sync (beta, `/v1`): warehouse authentications, browsing, guess,
 * integrations and their runs. Follows dwh-integration.openapi.yml where it says something; the spec leaves
 * the rest open ("not shown"), and these shapes fill it. Secrets are accepted and never returned.
 */

/**
 * TLS to the warehouse, as libpq names it: `prefer` (libpq's default, and ours) uses TLS when the server
 * offers it and connects without otherwise; `require` always uses TLS without checking the certificate;
 * `verify-full` checks the certificate and the host name; `disable` never uses TLS.
 */
export const SSL_MODES = ['disable', 'prefer', 'require', 'verify-full'] as const;
export const sslMode = z.enum(SSL_MODES, {
  error: '"ssl_mode" must be "disable", "prefer", "require" or "verify-full".',
});
export type SslMode = z.infer<typeof sslMode>;

/**
 * How a table's runs land: `replace` (full refresh: every run reads every row and swaps the table),
 * `append` (incremental: new rows are added), `merge` (incremental + dedup: one row per key, the newest by
 * the incremental column; rows deleted in the warehouse stay).
 */
export const SYNC_MODES = ['append', 'replace', 'merge'] as const;
export const syncMode = z.enum(SYNC_MODES, {
  error: '"mode" must be "append", "replace" or "merge" (append and keep one row per key).',
});
export type SyncMode = z.infer<typeof syncMode>;

/** The types a warehouse column can land as (DESIGN §4): whole numbers, floating point, text. */
export const TARGET_TYPES = ['long', 'double', 'string'] as const;
export const targetType = z.enum(TARGET_TYPES, { error: 'A column type must be "long", "double" or "string".' });
export type TargetType = z.infer<typeof targetType>;

export const SCHEDULE_TYPES = ['none', 'daily', 'hourly', 'weekly', 'monthly', 'minutes_interval', 'cron'] as const;

/** PUT /v1/dwh/feature (administrators) and its answer. */
export const dwhFeature = z.object({ enabled: z.boolean() });

/** POST /v1/authentications (JSON). `password` is stored encrypted and never shown again. */
export const authenticationCreate = z.object({
  name: z.string().trim().min(1, 'Give the authentication a "name".').max(255),
  type: z.literal('postgresql', { error: '"type" must be "postgresql" (the one warehouse supported).' }).optional(),
  host: z.string().trim().min(1, 'Give the warehouse "host".').max(255),
  port: z.coerce.number().int().min(1).max(65535).optional(),
  database: z.string().trim().min(1, 'Give the warehouse "database" to connect to.').max(255),
  user: z.string().min(1, 'Give the warehouse "user".').max(255),
  password: z.string().max(1024).optional(),
  ssl_mode: sslMode.optional(),
});
export type AuthenticationCreate = z.input<typeof authenticationCreate>;

/** PATCH /v1/authentications/:id: the fields to change; `password` re-encrypted ("" clears it), absent kept. */
export const authenticationUpdate = authenticationCreate.partial();

/** A stored authentication as every read shows it: no password, only whether one is set. */
export const authentication = z.object({
  id: z.number().int(),
  svc_authentication_id: z.number().int(),
  name: z.string(),
  type: z.literal('postgresql'),
  host: z.string(),
  port: z.number().int(),
  database: z.string(),
  user: z.string(),
  ssl_mode: sslMode,
  password_set: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Authentication = z.infer<typeof authentication>;
export const authenticationList = z.object({ authentications: z.array(authentication) });

/** POST /v1/authentications/:id/test. */
export const connectionTest = z.object({
  ok: z.boolean(),
  message: z.string(),
  server_version: z.string().nullable(),
  /** Whether the connection used TLS; null when it failed. */
  tls: z.boolean().nullable(),
});
export type ConnectionTest = z.infer<typeof connectionTest>;

/** Browsing the warehouse. */
export const warehouseDatabases = z.object({ databases: z.array(z.object({ name: z.string() })) });
export const warehouseSchemas = z.object({ schemas: z.array(z.object({ name: z.string() })) });
export const warehouseTable = z.object({
  schema: z.string(),
  name: z.string(),
  kind: z.enum(['table', 'view']),
  estimated_rows: z.number().int().nullable(),
});
export const warehouseTables = z.object({ tables: z.array(warehouseTable) });

/** A source column, its mapped type, the types it may be changed to, and why it is skipped (if it is). */
export const warehouseColumn = z.object({
  name: z.string(),
  source_type: z.string(),
  nullable: z.boolean(),
  primary_key: z.boolean(),
  type: targetType.nullable(),
  options: z.array(targetType),
  skipped_reason: z.string().nullable(),
});
export type WarehouseColumn = z.infer<typeof warehouseColumn>;
export const warehouseTableSchema = z.object({
  schema: z.string(),
  name: z.string(),
  columns: z.array(warehouseColumn),
});

/** One table's advanced config, as the guess proposes it and POST /v1/dwh/ accepts it (edited). */
export const tableConfig = z.object({
  type: z.literal('postgresql').optional(),
  source_type: z.literal('table_view').optional(),
  schema: z.string().min(1),
  table: z.string().min(1),
  columns: z
    .array(
      z.object({
        name: z.string().min(1),
        type: targetType,
        source_type: z.string().optional(),
        options: z.array(targetType).optional(),
      }),
    )
    .min(1, 'Pick at least one column to load.'),
  skipped: z.array(z.object({ column: z.string(), source_type: z.string(), reason: z.string() })).optional(),
  mode: syncMode.optional(),
  /** The key of `merge` mode: source columns (loaded ones); the guess proposes the primary key. */
  merge_keys: z.array(z.string().min(1)).max(32, 'A key has at most 32 columns.').optional(),
  incremental: z.boolean().optional(),
  incremental_columns: z.array(z.string()).max(1, 'Incremental loads follow one column.').optional(),
  incremental_candidates: z.array(z.string()).optional(),
  time_column: z.string().nullable().optional(),
  primary_key: z.array(z.string()).optional(),
  /** Reference options this server does not implement: accepted only so that a request using them gets a 400 naming them. */
  use_custom_query: z.unknown().optional(),
  query: z.unknown().optional(),
  select: z.unknown().optional(),
  where: z.unknown().optional(),
  order_by: z.unknown().optional(),
  invalid_value_option: z.unknown().optional(),
  last_record: z.unknown().optional(),
});
export type TableConfig = z.infer<typeof tableConfig>;
export const advancedConfig = z.object({ target_table: z.string(), config: tableConfig });
export type AdvancedConfig = z.infer<typeof advancedConfig>;

export const basicConfigs = z.looseObject({
  type: z.literal('postgresql').optional(),
  svc_authentication_id: z.coerce.number().int().positive(),
  database: z.string().optional(),
  schema: z.string().optional(),
  tables: z.array(z.string()).optional(),
  target_database: z.string().optional(),
});
export type BasicConfigs = z.infer<typeof basicConfigs>;

/** POST /v1/guess: which authentication, which tables (`schema.table` or bare names in `schema`). */
export const guessRequest = z.object({
  svc_authentication_id: z.coerce.number().int().positive().optional(),
  basic_configs: basicConfigs.partial({ svc_authentication_id: true }).optional(),
  schema: z.string().optional(),
  tables: z.array(z.string()).optional(),
  target_database: z.string().optional(),
  /** Another database of the authentication's server (default: the authentication's database). */
  database: z.string().optional(),
});

/**
 * The guess's schedule suggestion for a table: daily at 00:00 for incremental tables (each run reads only
 * new rows), null (run by hand) for full reloads. Guess output only: an integration runs all its tables on
 * its own `schedule_type`/`schedule_option` (POST /v1/dwh/ does not read this field).
 */
export const scheduleSuggestion = z
  .object({ schedule_type: z.enum(SCHEDULE_TYPES), schedule_option: z.string().nullable() })
  .nullable();

export const guessResult = z.object({
  basic_configs: basicConfigs.extend({ target_database: z.string() }),
  advanced_configs: z.array(advancedConfig.extend({ schedule: scheduleSuggestion })),
});
export type GuessResult = z.infer<typeof guessResult>;

export const outputConfig = z.looseObject({
  type: z.string().optional(),
  database: z.string(),
  mode: syncMode.optional(),
  time_column: z.string().optional(),
});
export const filterConfigs = z.array(z.looseObject({ type: z.string() }));

const schedule = {
  schedule_type: z.enum(SCHEDULE_TYPES).optional(),
  schedule_option: z.string().nullable().optional(),
  timezone: z.string().optional(),
};

/** POST /v1/dwh/ (and PUT /v1/dwh/:id with every field optional). */
export const integrationCreate = z.object({
  name: z.string().trim().min(1, 'Give the integration a "name".').max(255),
  ...schedule,
  basic_configs: basicConfigs,
  advanced_configs: z.array(advancedConfig).min(1, 'Give at least one table in "advanced_configs".'),
  output_config: outputConfig,
  filter_configs: filterConfigs.optional(),
});
export type IntegrationCreate = z.input<typeof integrationCreate>;
export const integrationUpdate = integrationCreate.partial();
export const integrationCreated = z.object({ dwh_id: z.number().int() });

/** An integration (OAS `DwhIntegration`). */
export const integration = z.object({
  id: z.number().int(),
  name: z.string(),
  user_id: z.number().int().nullable(),
  account_id: z.number().int(),
  workflow_project_id: z.number().int(),
  workflow_project_name: z.string(),
  dwh_config_id: z.number().int(),
  schedule_type: z.enum(SCHEDULE_TYPES),
  schedule_option: z.string(),
  timezone: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Integration = z.infer<typeof integration>;
export const integrationList = z.object({
  items: z.array(integration),
  pagination: z.object({ page: z.number().int(), size: z.number().int(), total_pages: z.number().int() }),
});

/** GET /v1/dwh/:id/configs. */
export const integrationConfigs = z.object({
  id: z.number().int(),
  config_digest: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  basic_configs: basicConfigs,
  advanced_configs: z.array(advancedConfig),
  output_config: outputConfig,
  filter_configs: filterConfigs,
});
export type IntegrationConfigs = z.infer<typeof integrationConfigs>;

/** GET /v1/dwh/:id/bulkload_sessions. */
export const integrationSession = z.object({
  name: z.string(),
  bulkload_session_id: z.number().int(),
  target_table: z.string(),
  configs_digest: z.string(),
});

export const RUN_STATUSES = ['queued', 'running', 'success', 'error'] as const;

/** One table of a run: its bulk load job, rows written and the error if it failed. */
export const attemptTable = z.object({
  target_table: z.string(),
  bulk_load_name: z.string(),
  job_id: z.number().int(),
  status: z.string(),
  records: z.number().int().nullable(),
  error: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Seconds from the job's start to its end (or to now while it runs); null before it starts. */
  duration_seconds: z.number().nullable(),
});
export type AttemptTable = z.infer<typeof attemptTable>;

/** GET /v1/dwh/:id/session_attempts items (OAS `SessionAttempt`, with each table's outcome). */
export const sessionAttempt = z.object({
  attempt_id: z.number().int(),
  attempt_name: z.string(),
  session_id: z.number().int(),
  session_time: z.string(),
  status: z.enum(RUN_STATUSES),
  done: z.boolean(),
  trigger: z.enum(['manual', 'schedule']),
  /** A re-sync from scratch: every table read whole and its target replaced. */
  resync: z.boolean(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** Rows the run's tables wrote so far. */
  records: z.number().int(),
  duration_seconds: z.number().nullable(),
  tables: z.array(attemptTable),
});
export type SessionAttempt = z.infer<typeof sessionAttempt>;
export const sessionAttemptList = z.object({
  items: z.array(sessionAttempt),
  pagination: z.object({ page: z.number().int(), size: z.number().int(), total_pages: z.number().int() }),
});

/** A table a run left out because its previous run is still queued or running (one job per session at a time). */
export const busyTable = z.object({
  target_table: z.string(),
  bulk_load_name: z.string(),
  job_id: z.number().int(),
  status: z.string(),
});

/** PUT /v1/dwh/:id/run_workflow (OAS `WorkflowRun`; `already_running` lists the tables this run left out). */
export const workflowRun = z.object({
  id: z.string(),
  status: z.string(),
  index: z.number().int(),
  project: z.object({ id: z.string(), name: z.string() }),
  workflow: z.object({ id: z.string(), name: z.string() }),
  sessionId: z.string(),
  sessionUuid: z.string(),
  sessionTime: z.string(),
  retryAttemptName: z.string().nullable(),
  done: z.boolean(),
  success: z.boolean(),
  cancelRequested: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  already_running: z.array(busyTable).optional(),
});
export type WorkflowRun = z.infer<typeof workflowRun>;

/** POST /v1/authentications/test: the settings of an authentication to try before saving it. */
export const authenticationTest = authenticationCreate.partial({ name: true });

/** DELETE /v1/dwh/:id query: `drop_tables=true` also deletes the target tables and their rows. */
export const integrationDeleteQuery = z.object({
  drop_tables: z.enum(['true', 'false', '1', '0'], { error: '"drop_tables" must be true or false.' }).optional(),
});

/** The latest run of an integration, in its status. */
export const runSummary = z.object({
  attempt_id: z.number().int(),
  status: z.enum(RUN_STATUSES),
  trigger: z.enum(['manual', 'schedule']),
  resync: z.boolean(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  duration_seconds: z.number().nullable(),
  records: z.number().int(),
});

/**
 * GET /v1/dwh/:id/status (and each item of GET /v1/dwh/status): whether it runs on its schedule or is
 * paused, its next scheduled run, its latest run, and the rows its runs moved.
 */
export const integrationStatus = z.object({
  dwh_id: z.number().int(),
  name: z.string(),
  user_id: z.number().int().nullable(),
  state: z.enum(['active', 'paused']),
  paused_at: z.string().nullable(),
  schedule_type: z.enum(SCHEDULE_TYPES),
  schedule_option: z.string(),
  timezone: z.string(),
  /** The next scheduled run; null when paused or run by hand only. */
  next_run_at: z.string().nullable(),
  last_run: runSummary.nullable(),
  /** Rows written by every run still in the history (the latest 100). */
  rows_moved: z.number().int(),
  created_at: z.string(),
});
export type IntegrationStatus = z.infer<typeof integrationStatus>;
export const integrationStatusList = z.object({ items: z.array(integrationStatus) });
