import { createHash } from 'node:crypto';
import {
  type AdvancedConfig,
  DATA_NAME,
  type Integration,
  type IntegrationConfigs,
  type integrationCreate,
} from '@svc/contracts';
import type { z } from 'zod';
import { checkFilters, checkSourceOptions } from '../bulk-loads/config';
import { type BulkLoadRow, deleteBulkLoad, insertBulkLoad, updateBulkLoad } from '../bulk-loads/store';
import { checkWritableTable, createTableRow, findDatabase, findTable } from '../data/catalog';
import { columnNameForKey } from '../data/columns';
import { createDataTable } from '../data/tableStore';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict, forbidden, notFound } from '../platform/errors';
import { type Executor, insertId, isUniqueViolation, many, one, run, sql, transaction } from '../platform/storage';
import { isoTime } from '../platform/time';
import { type AuthRow, requireAuthentication, sourceFields } from './authentications';
import { scheduleCron } from './schedule';

/** Integrations and the bulk load session each of their tables is. */

type Create = z.infer<typeof integrationCreate>;

export interface IntegrationRow {
  id: number;
  account_id: number;
  user_id: number | null;
  name: string;
  schedule_type: Integration['schedule_type'];
  schedule_option: string | null;
  timezone: string;
  cron: string | null;
  last_fired_at: number | null;
  config_json: string;
  config_digest: string;
  config_updated_at: number;
  created_at: number;
  updated_at: number;
}

type Configs = Pick<Create, 'basic_configs' | 'advanced_configs' | 'output_config'> & {
  filter_configs: NonNullable<Create['filter_configs']>;
};

export function toWireIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    name: row.name,
    user_id: row.user_id,
    account_id: row.account_id,
    workflow_project_id: row.id,
    workflow_project_name: `dwh_${row.id}`,
    dwh_config_id: row.id,
    schedule_type: row.schedule_type,
    // A string in the public description: empty for a schedule without an option.
    schedule_option: row.schedule_option ?? '',
    timezone: row.timezone,
    created_at: isoTime(new Date(row.created_at)),
    updated_at: isoTime(new Date(row.updated_at)),
  };
}

export function toWireConfigs(row: IntegrationRow): IntegrationConfigs {
  const c = JSON.parse(row.config_json) as Configs;
  return {
    id: row.id,
    config_digest: row.config_digest,
    created_at: isoTime(new Date(row.created_at)),
    updated_at: isoTime(new Date(row.config_updated_at)),
    basic_configs: c.basic_configs,
    advanced_configs: c.advanced_configs,
    output_config: c.output_config,
    filter_configs: c.filter_configs,
  };
}

/** The account's integrations, newest first: those `userId` created, or every one when `userId` is null. */
export async function listIntegrations(
  deps: AppDeps,
  accountId: number,
  userId: number | null,
): Promise<IntegrationRow[]> {
  const mine = userId === null ? sql`` : sql` AND user_id = ${userId}`;
  return many<IntegrationRow>(
    deps.storage.db,
    sql`SELECT * FROM dwh_integrations WHERE account_id = ${accountId}${mine} ORDER BY id DESC`,
  );
}

/** Running or changing an integration is for the user who created it and for administrators (403 otherwise). */
export function requireIntegrationControl(p: Principal, row: IntegrationRow, action: string): void {
  if (p.administrator || row.user_id === p.userId) return;
  throw forbidden(
    `Integration ${row.id} belongs to another user; only its creator or an administrator can ${action} it.`,
  );
}

export async function requireIntegration(
  deps: AppDeps,
  accountId: number,
  id: unknown,
  ex: Executor = deps.storage.db,
): Promise<IntegrationRow> {
  const n = Number(id);
  const row = Number.isSafeInteger(n)
    ? await one<IntegrationRow>(ex, sql`SELECT * FROM dwh_integrations WHERE account_id = ${accountId} AND id = ${n}`)
    : undefined;
  if (!row) throw notFound('integration');
  return row;
}

export async function integrationSessions(
  deps: AppDeps,
  row: IntegrationRow,
  ex: Executor = deps.storage.db,
): Promise<BulkLoadRow[]> {
  return many<BulkLoadRow>(
    ex,
    sql`SELECT * FROM bulk_loads WHERE account_id = ${row.account_id} AND integration_id = ${row.id} ORDER BY id`,
  );
}

const digestOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
export const tableDigest = (a: AdvancedConfig) => digestOf(a).slice(0, 16);

/** The column a source column lands in; `time` is the table's own, so a source `time` becomes `source_time`. */
export function landedName(source: string): string {
  const name = columnNameForKey(source);
  return name === 'time' ? 'source_time' : name;
}

/** The bulk load session config of one table: source (no secret), output, rename and add_time filters. */
function sessionConfig(auth: AuthRow, c: Configs, a: AdvancedConfig) {
  const t = a.config;
  const renames: Record<string, string> = {};
  for (const col of t.columns) {
    const to = landedName(col.name);
    if (to !== col.name) renames[col.name] = to;
  }
  // A table's own time column wins; output_config.time_column is the default for tables without one.
  const wantedTime = t.time_column || c.output_config.time_column || null;
  const timeColumn = wantedTime ? (renames[wantedTime] ?? wantedTime) : null;
  if (wantedTime && !t.columns.some((col) => col.name === wantedTime)) {
    const from = t.time_column ? '' : ' (from output_config.time_column)';
    throw badRequest(
      `The time column "${wantedTime}"${from} of "${a.target_table}" must be one of its loaded columns.`,
    );
  }
  const incremental = t.incremental === true && (t.incremental_columns?.length ?? 0) > 0;
  const filters: Record<string, unknown>[] = [];
  if (Object.keys(renames).length > 0) filters.push({ type: 'rename', columns: renames });
  if (!timeColumn) filters.push({ type: 'add_time', to_column: { name: 'time' }, from_value: { mode: 'upload_time' } });
  for (const f of c.filter_configs) filters.push(f);
  return {
    timeColumn,
    config: {
      in: {
        ...sourceFields(auth),
        ...(c.basic_configs.database ? { database: c.basic_configs.database } : {}),
        schema: t.schema,
        table: t.table,
        columns: t.columns.map(({ name, type }) => ({ name, type })),
        incremental,
        incremental_columns: incremental ? t.incremental_columns : [],
        fetch_rows: 5000,
      },
      out: {
        type: 'svc_internal',
        plazma_dataset: c.output_config.database,
        mode: t.mode ?? c.output_config.mode ?? 'append',
        ...(timeColumn ? { time_column: timeColumn } : {}),
      },
      filters,
      exec: {},
    },
  };
}

/** Checks configs, creates the target database and tables when missing, and returns the normalised configs. */
export async function checkConfigs(deps: AppDeps, accountId: number, c: Create | Configs): Promise<Configs> {
  await requireAuthentication(deps, accountId, c.basic_configs.svc_authentication_id);
  const database = c.output_config.database;
  if (!DATA_NAME.test(database)) {
    throw badRequest('"output_config.database" must be 3 to 255 lowercase letters, digits or underscores.');
  }
  checkFilters(c.filter_configs, 'filter_configs');
  const out = c.output_config;
  const seen = new Set<string>();
  for (const [i, a] of c.advanced_configs.entries()) {
    checkSourceOptions(a.config as Record<string, unknown>, `advanced_configs[${i}].config`);
    // A table may repeat the integration-wide choice but not contradict it: nothing is ignored silently.
    if (out.mode && a.config.mode && a.config.mode !== out.mode) {
      throw badRequest(
        `"${a.target_table}" says mode "${a.config.mode}" but output_config.mode is "${out.mode}": remove one or make them agree.`,
      );
    }
    const t = a.config.time_column;
    if (out.time_column && t && t !== out.time_column) {
      throw badRequest(
        `"${a.target_table}" says time_column "${t}" but output_config.time_column is "${out.time_column}": remove one or make them agree.`,
      );
    }
    if (!DATA_NAME.test(a.target_table)) {
      throw badRequest(`"target_table" "${a.target_table}" must be 3 to 255 lowercase letters, digits or underscores.`);
    }
    if (seen.has(a.target_table))
      throw badRequest(`Two tables load into "${a.target_table}"; give each its own target table.`);
    seen.add(a.target_table);
  }
  return { ...c, filter_configs: c.filter_configs ?? [] };
}

async function ensureTargets(deps: AppDeps, accountId: number, c: Configs): Promise<void> {
  const database = await findDatabase(deps.storage.db, accountId, c.output_config.database);
  if (!database) {
    throw badRequest(
      `The database "${c.output_config.database}" does not exist: create it first (POST /v3/database/create/${c.output_config.database}).`,
    );
  }
  // Every new name is checked before any table is made, so a refused one leaves nothing behind.
  for (const a of c.advanced_configs) await checkWritableTable(deps.storage.db, database, a.target_table);
  for (const a of c.advanced_configs) {
    if (!(await findTable(deps.storage.db, accountId, database.id, a.target_table))) {
      await createDataTable(deps, database, await createTableRow(deps, database, a.target_table, []));
    }
  }
}

/** Creates, updates or deletes the integration's sessions so there is exactly one per table. */
async function syncSessions(
  deps: AppDeps,
  tx: Executor,
  auth: AuthRow,
  row: IntegrationRow,
  c: Configs,
): Promise<void> {
  const now = deps.clock.now().getTime();
  const existing = new Map((await integrationSessions(deps, row, tx)).map((s) => [s.table_name, s]));
  for (const a of c.advanced_configs) {
    const { config, timeColumn } = sessionConfig(auth, c, a);
    const values = {
      name: `dwh_${row.id}_${a.target_table}`.slice(0, 255),
      database_name: c.output_config.database,
      table_name: a.target_table,
      cron: null,
      timezone: row.timezone,
      delay: 0,
      start_at: null,
      time_column: timeColumn,
      config_json: JSON.stringify(config),
    };
    const before = existing.get(a.target_table);
    existing.delete(a.target_table);
    if (before && before.database_name === values.database_name) await updateBulkLoad(tx, before, values, now);
    else {
      if (before) await deleteBulkLoad(tx, before);
      await insertBulkLoad(tx, row.account_id, values, now, { userId: row.user_id, integrationId: row.id });
    }
  }
  for (const gone of existing.values()) await deleteBulkLoad(tx, gone);
}

const nameTaken = (name: string | undefined) =>
  conflict(`An integration named "${name}" already exists. Choose another name.`);

export async function createIntegration(
  deps: AppDeps,
  accountId: number,
  userId: number,
  input: Create,
): Promise<IntegrationRow> {
  const c = await checkConfigs(deps, accountId, input);
  const auth = await requireAuthentication(deps, accountId, c.basic_configs.svc_authentication_id);
  const timezone = input.timezone ?? 'UTC';
  const type = input.schedule_type ?? 'none';
  const cron = scheduleCron(type, input.schedule_option, timezone);
  await ensureTargets(deps, accountId, c);
  const now = deps.clock.now().getTime();
  // Checked first: on PostgreSQL a refused INSERT would end the transaction.
  const taken = await one(
    deps.storage.db,
    sql`SELECT id FROM dwh_integrations WHERE account_id = ${accountId} AND name = ${input.name}`,
  );
  if (taken) throw nameTaken(input.name);
  try {
    return await transaction(deps.storage, async (tx) => {
      const id = await insertId(
        tx,
        sql`INSERT INTO dwh_integrations (account_id, user_id, name, schedule_type, schedule_option, timezone, cron,
              config_json, config_digest, config_updated_at, created_at, updated_at)
            VALUES (${accountId}, ${userId}, ${input.name}, ${type}, ${input.schedule_option ?? null}, ${timezone},
              ${cron}, ${JSON.stringify(c)}, ${digestOf(c)}, ${now}, ${now}, ${now})
            RETURNING id`,
      );
      const row = await requireIntegration(deps, accountId, id, tx);
      await syncSessions(deps, tx, auth, row, c);
      return row;
    });
  } catch (err) {
    // Another request took the name between the check and the insert.
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
}

export async function updateIntegration(
  deps: AppDeps,
  row: IntegrationRow,
  input: Partial<Create>,
): Promise<IntegrationRow> {
  const before = JSON.parse(row.config_json) as Configs;
  const c = await checkConfigs(deps, row.account_id, {
    basic_configs: input.basic_configs ?? before.basic_configs,
    advanced_configs: input.advanced_configs ?? before.advanced_configs,
    output_config: input.output_config ?? before.output_config,
    filter_configs: input.filter_configs ?? before.filter_configs,
  });
  const timezone = input.timezone ?? row.timezone;
  const type = input.schedule_type ?? row.schedule_type;
  const option = input.schedule_option === undefined ? row.schedule_option : input.schedule_option;
  const cron = scheduleCron(type, option, timezone);
  const auth = await requireAuthentication(deps, row.account_id, c.basic_configs.svc_authentication_id);
  await ensureTargets(deps, row.account_id, c);
  const now = deps.clock.now().getTime();
  const digest = digestOf(c);
  const name = input.name ?? row.name;
  const taken = await one(
    deps.storage.db,
    sql`SELECT id FROM dwh_integrations WHERE account_id = ${row.account_id} AND name = ${name} AND id <> ${row.id}`,
  );
  if (taken) throw nameTaken(name);
  try {
    return await transaction(deps.storage, async (tx) => {
      await run(
        tx,
        sql`UPDATE dwh_integrations SET name = ${name}, schedule_type = ${type}, schedule_option = ${option},
              timezone = ${timezone}, cron = ${cron}, config_json = ${JSON.stringify(c)}, config_digest = ${digest},
              config_updated_at = ${digest === row.config_digest ? row.config_updated_at : now}, updated_at = ${now}
            WHERE id = ${row.id} AND account_id = ${row.account_id}`,
      );
      const next = await requireIntegration(deps, row.account_id, row.id, tx);
      await syncSessions(deps, tx, auth, next, c);
      return next;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
}

/** Deletes the integration, its sessions (cascade) and its attempts; jobs stay in the job history. */
export async function deleteIntegration(deps: AppDeps, row: IntegrationRow): Promise<void> {
  await run(deps.storage.db, sql`DELETE FROM dwh_integrations WHERE id = ${row.id} AND account_id = ${row.account_id}`);
}
