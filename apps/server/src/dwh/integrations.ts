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
import { type BulkLoadRow, insertBulkLoad, updateBulkLoad } from '../bulk-loads/store';
import { checkWritableTable, createTableRow, findDatabase, findTable } from '../data/catalog';
import { columnNameForKey } from '../data/columns';
import { createDataTable } from '../data/tableStore';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict, forbidden, notFound } from '../platform/errors';
import { isoTime } from '../platform/time';
import { requireAuthentication, sourceFields } from './authentications';
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
export function listIntegrations(deps: AppDeps, accountId: number, userId: number | null): IntegrationRow[] {
  if (userId === null) {
    return deps.db
      .prepare('SELECT * FROM dwh_integrations WHERE account_id = ? ORDER BY id DESC')
      .all(accountId) as IntegrationRow[];
  }
  return deps.db
    .prepare('SELECT * FROM dwh_integrations WHERE account_id = ? AND user_id = ? ORDER BY id DESC')
    .all(accountId, userId) as IntegrationRow[];
}

/** Running or changing an integration is for the user who created it and for administrators (403 otherwise). */
export function requireIntegrationControl(p: Principal, row: IntegrationRow, action: string): void {
  if (p.administrator || row.user_id === p.userId) return;
  throw forbidden(
    `Integration ${row.id} belongs to another user; only its creator or an administrator can ${action} it.`,
  );
}

export function requireIntegration(deps: AppDeps, accountId: number, id: unknown): IntegrationRow {
  const n = Number(id);
  const row = Number.isSafeInteger(n)
    ? (deps.db.prepare('SELECT * FROM dwh_integrations WHERE account_id = ? AND id = ?').get(accountId, n) as
        | IntegrationRow
        | undefined)
    : undefined;
  if (!row) throw notFound('integration');
  return row;
}

export function integrationSessions(deps: AppDeps, row: IntegrationRow): BulkLoadRow[] {
  return deps.db
    .prepare('SELECT * FROM bulk_loads WHERE account_id = ? AND integration_id = ? ORDER BY id')
    .all(row.account_id, row.id) as BulkLoadRow[];
}

const digestOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
export const tableDigest = (a: AdvancedConfig) => digestOf(a).slice(0, 16);

/** The column a source column lands in; `time` is the table's own, so a source `time` becomes `source_time`. */
function landedName(source: string): string {
  const name = columnNameForKey(source);
  return name === 'time' ? 'source_time' : name;
}

/** The bulk load session config of one table: source (no secret), output, rename and add_time filters. */
function sessionConfig(deps: AppDeps, accountId: number, c: Configs, a: AdvancedConfig) {
  const auth = requireAuthentication(deps, accountId, c.basic_configs.svc_authentication_id);
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
export function checkConfigs(deps: AppDeps, accountId: number, c: Create | Configs): Configs {
  requireAuthentication(deps, accountId, c.basic_configs.svc_authentication_id);
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
function syncSessions(deps: AppDeps, row: IntegrationRow, c: Configs): void {
  const now = deps.clock.now().getTime();
  const existing = new Map(integrationSessions(deps, row).map((s) => [s.table_name, s]));
  for (const a of c.advanced_configs) {
    const { config, timeColumn } = sessionConfig(deps, row.account_id, c, a);
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
    if (before && before.database_name === values.database_name) updateBulkLoad(deps.db, before, values, now);
    else {
      if (before) deps.db.prepare('DELETE FROM bulk_loads WHERE id = ?').run(before.id);
      insertBulkLoad(deps.db, row.account_id, values, now, { userId: row.user_id, integrationId: row.id });
    }
  }
  for (const gone of existing.values()) deps.db.prepare('DELETE FROM bulk_loads WHERE id = ?').run(gone.id);
}

export async function createIntegration(
  deps: AppDeps,
  accountId: number,
  userId: number,
  input: Create,
): Promise<IntegrationRow> {
  const c = checkConfigs(deps, accountId, input);
  const timezone = input.timezone ?? 'UTC';
  const type = input.schedule_type ?? 'none';
  const cron = scheduleCron(type, input.schedule_option, timezone);
  await ensureTargets(deps, accountId, c);
  const now = deps.clock.now().getTime();
  return deps.db.transaction(() => {
    let id: number;
    try {
      id = Number(
        deps.db
          .prepare(
            `INSERT INTO dwh_integrations (account_id, user_id, name, schedule_type, schedule_option, timezone, cron,
               config_json, config_digest, config_updated_at, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            accountId,
            userId,
            input.name,
            type,
            input.schedule_option ?? null,
            timezone,
            cron,
            JSON.stringify(c),
            digestOf(c),
            now,
            now,
            now,
          ).lastInsertRowid,
      );
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw conflict(`An integration named "${input.name}" already exists. Choose another name.`);
      }
      throw err;
    }
    const row = requireIntegration(deps, accountId, id);
    syncSessions(deps, row, c);
    return row;
  })();
}

export async function updateIntegration(
  deps: AppDeps,
  row: IntegrationRow,
  input: Partial<Create>,
): Promise<IntegrationRow> {
  const before = JSON.parse(row.config_json) as Configs;
  const c = checkConfigs(deps, row.account_id, {
    basic_configs: input.basic_configs ?? before.basic_configs,
    advanced_configs: input.advanced_configs ?? before.advanced_configs,
    output_config: input.output_config ?? before.output_config,
    filter_configs: input.filter_configs ?? before.filter_configs,
  });
  const timezone = input.timezone ?? row.timezone;
  const type = input.schedule_type ?? row.schedule_type;
  const option = input.schedule_option === undefined ? row.schedule_option : input.schedule_option;
  const cron = scheduleCron(type, option, timezone);
  await ensureTargets(deps, row.account_id, c);
  const now = deps.clock.now().getTime();
  const digest = digestOf(c);
  return deps.db.transaction(() => {
    deps.db
      .prepare(
        `UPDATE dwh_integrations SET name = ?, schedule_type = ?, schedule_option = ?, timezone = ?, cron = ?,
           config_json = ?, config_digest = ?, config_updated_at = ?, updated_at = ? WHERE id = ? AND account_id = ?`,
      )
      .run(
        input.name ?? row.name,
        type,
        option,
        timezone,
        cron,
        JSON.stringify(c),
        digest,
        digest === row.config_digest ? row.config_updated_at : now,
        now,
        row.id,
        row.account_id,
      );
    const next = requireIntegration(deps, row.account_id, row.id);
    syncSessions(deps, next, c);
    return next;
  })();
}

/** Deletes the integration, its sessions (cascade) and its attempts; jobs stay in the job history. */
export function deleteIntegration(deps: AppDeps, row: IntegrationRow): void {
  deps.db.prepare('DELETE FROM dwh_integrations WHERE id = ? AND account_id = ?').run(row.id, row.account_id);
}
