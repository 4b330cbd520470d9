import { createHash } from 'node:crypto';
import type { AdvancedConfig, Integration, IntegrationConfigs } from '@svc/contracts';
import {
  type BulkLoadRow,
  bulkLoadsOfIntegration,
  deleteBulkLoad,
  insertBulkLoad,
  requestResync,
  updateBulkLoad,
} from '../bulk-loads';
import { checkWritableTable, createDataTableInWorker, createTableRow, findDatabase, findTable } from '../data';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict, forbidden, notFound } from '../platform/errors';
import { type Executor, isUniqueViolation, type Row, transaction } from '../platform/storage';
import { isoTime } from '../platform/time';
import { type AuthRow, requireAuthentication } from './authentications';
import { scheduleCron } from './schedule';
import { type Configs, readConfigs } from './storedConfigs';
import { type Create, checkConfigs, needsResync, sessionConfig } from './tableConfigs';

/** Integrations and the bulk load session each of their tables is. */

/** A row of `dwh_integrations`; `paused_at` is when it was paused (its schedule does not run it), or null. */
export type IntegrationRow = Omit<Row<'dwh_integrations'>, 'schedule_type'> & Scheduled;

type Scheduled = { schedule_type: Integration['schedule_type'] };

/** Whole rows of `dwh_integrations`, their schedule type narrowed. */
export const integrationRows = (ex: Executor) => ex.selectFrom('dwh_integrations').selectAll().$narrowType<Scheduled>();

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
  const c = readConfigs(row.config_json);
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
  return integrationRows(deps.storage.db)
    .where('account_id', '=', accountId)
    .$if(userId !== null, (q) => q.where('user_id', '=', userId))
    .orderBy('id', 'desc')
    .execute();
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
    ? await integrationRows(ex).where('account_id', '=', accountId).where('id', '=', n).executeTakeFirst()
    : undefined;
  if (!row) throw notFound('integration');
  return row;
}

export async function integrationSessions(
  deps: AppDeps,
  row: IntegrationRow,
  ex: Executor = deps.storage.db,
): Promise<BulkLoadRow[]> {
  return bulkLoadsOfIntegration(ex, row.account_id, row.id);
}

const digestOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
export const tableDigest = (a: AdvancedConfig) => digestOf(a).slice(0, 16);

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
      await createDataTableInWorker(deps, database, await createTableRow(deps, database, a.target_table, []));
    }
  }
}

/**
 * Creates, updates or deletes the integration's sessions so there is exactly one per table. A table whose
 * change makes its loaded rows disagree with later runs (`needsResync`) is loaded from scratch at its next run.
 */
async function syncSessions(
  deps: AppDeps,
  tx: Executor,
  auth: AuthRow,
  row: IntegrationRow,
  c: Configs,
  prior: Configs | null = null,
): Promise<void> {
  const now = deps.clock.now().getTime();
  const existing = new Map((await integrationSessions(deps, row, tx)).map((s) => [s.table_name, s]));
  const previous = new Map((prior?.advanced_configs ?? []).map((a) => [a.target_table, a]));
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
    if (before && before.database_name === values.database_name) {
      const updated = await updateBulkLoad(tx, before, values, now);
      const was = previous.get(a.target_table);
      if (was && prior && needsResync(prior, was, c, a)) await requestResync(tx, updated, now);
    } else {
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
  record: (tx: Executor, row: IntegrationRow) => Promise<void> = async () => {},
): Promise<IntegrationRow> {
  const c = await checkConfigs(deps, accountId, input);
  const auth = await requireAuthentication(deps, accountId, c.basic_configs.svc_authentication_id);
  const timezone = input.timezone ?? 'UTC';
  const type = input.schedule_type ?? 'none';
  const cron = scheduleCron(type, input.schedule_option, timezone);
  await ensureTargets(deps, accountId, c);
  const now = deps.clock.now().getTime();
  // Checked first: on PostgreSQL a refused INSERT would end the transaction.
  const taken = await deps.storage.db
    .selectFrom('dwh_integrations')
    .select('id')
    .where('account_id', '=', accountId)
    .where('name', '=', input.name)
    .executeTakeFirst();
  if (taken) throw nameTaken(input.name);
  try {
    return await transaction(deps.storage, async (tx) => {
      const { id } = await tx
        .insertInto('dwh_integrations')
        .values({
          account_id: accountId,
          user_id: userId,
          name: input.name,
          schedule_type: type,
          schedule_option: input.schedule_option ?? null,
          timezone,
          cron,
          config_json: JSON.stringify(c),
          config_digest: digestOf(c),
          config_updated_at: now,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await requireIntegration(deps, accountId, id, tx);
      await syncSessions(deps, tx, auth, row, c);
      // The audit entry, in the same transaction: both happen, or neither.
      await record(tx, row);
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
  record: (tx: Executor, next: IntegrationRow) => Promise<void> = async () => {},
): Promise<IntegrationRow> {
  const before = readConfigs(row.config_json);
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
  const taken = await deps.storage.db
    .selectFrom('dwh_integrations')
    .select('id')
    .where('account_id', '=', row.account_id)
    .where('name', '=', name)
    .where('id', '<>', row.id)
    .executeTakeFirst();
  if (taken) throw nameTaken(name);
  try {
    return await transaction(deps.storage, async (tx) => {
      await tx
        .updateTable('dwh_integrations')
        .set({
          name,
          schedule_type: type,
          schedule_option: option,
          timezone,
          cron,
          config_json: JSON.stringify(c),
          config_digest: digest,
          config_updated_at: digest === row.config_digest ? row.config_updated_at : now,
          updated_at: now,
        })
        .where('id', '=', row.id)
        .where('account_id', '=', row.account_id)
        .execute();
      const next = await requireIntegration(deps, row.account_id, row.id, tx);
      await syncSessions(deps, tx, auth, next, c, before);
      await record(tx, next);
      return next;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
}

/** The integration's target tables (database and names), as its configs say. */
export function targetTables(row: IntegrationRow): { database: string; tables: string[] } {
  const c = readConfigs(row.config_json);
  return { database: c.output_config.database, tables: c.advanced_configs.map((a) => a.target_table) };
}

/** Deletes the integration, its sessions (cascade) and its attempts; jobs stay in the job history. */
export async function deleteIntegration(deps: AppDeps, row: IntegrationRow): Promise<void> {
  await deps.storage.db
    .deleteFrom('dwh_integrations')
    .where('id', '=', row.id)
    .where('account_id', '=', row.account_id)
    .execute();
}
