import type { IntegrationStatus, SessionAttempt } from '@svc/contracts';
import { bulkLoadJobs, inFlightJob, nextFire } from '../bulk-loads';
import { deleteTable, findDatabase, findTable } from '../data';
import type { AppDeps } from '../platform/context';
import { conflict } from '../platform/errors';
import { isoTime } from '../platform/time';
import { listAttempts } from './attempts';
import {
  deleteIntegration,
  type IntegrationRow,
  integrationSessions,
  requireIntegration,
  targetTables,
} from './integrations';

/**
 * Day-two operations on an integration: pause and resume its schedule, its status (state, next and latest
 * run, rows moved), and deleting it with its target tables. A paused integration still runs by hand.
 */

export async function setPaused(deps: AppDeps, row: IntegrationRow, paused: boolean): Promise<IntegrationRow> {
  const now = deps.clock.now().getTime();
  if (paused) {
    await deps.storage.db
      .updateTable('dwh_integrations')
      .set((eb) => ({ paused_at: eb.fn.coalesce('paused_at', eb.val(now)), updated_at: now }))
      .where('id', '=', row.id)
      .where('account_id', '=', row.account_id)
      .execute();
  } else if (row.paused_at !== null) {
    // The schedule starts again from now: firings missed while paused are not made up at once.
    await deps.storage.db
      .updateTable('dwh_integrations')
      .set({ paused_at: null, last_fired_at: now, updated_at: now })
      .where('id', '=', row.id)
      .where('account_id', '=', row.account_id)
      .execute();
  }
  return requireIntegration(deps, row.account_id, row.id);
}

/** The next scheduled run after now, or null when paused or run by hand only. */
function nextRun(row: IntegrationRow, now: number): number | null {
  if (row.paused_at !== null || row.cron === null) return null;
  const due = nextFire(row.cron, row.timezone, row.last_fired_at ?? row.created_at);
  // A firing that came due runs at the next tick (within 30 s); after that the following one is next.
  return due === null ? null : Math.max(due, now);
}

/** Rows written by the successful runs of the integration's sessions. */
async function rowsMoved(deps: AppDeps, row: IntegrationRow): Promise<number> {
  const ids = (await integrationSessions(deps, row)).map((s) => s.id);
  if (ids.length === 0) return 0;
  const done = await bulkLoadJobs(deps.storage.db, row.account_id, ids, { statuses: ['success'] });
  return done.reduce((sum, job) => sum + Number(job.num_records ?? 0), 0);
}

function summary(a: SessionAttempt): IntegrationStatus['last_run'] {
  return {
    attempt_id: a.attempt_id,
    status: a.status,
    trigger: a.trigger,
    resync: a.resync,
    created_at: a.created_at,
    finished_at: a.finished_at,
    duration_seconds: a.duration_seconds,
    records: a.records,
  };
}

export async function integrationStatus(deps: AppDeps, row: IntegrationRow): Promise<IntegrationStatus> {
  const now = deps.clock.now().getTime();
  const [latest] = await listAttempts(deps, row, 1);
  const next = nextRun(row, now);
  return {
    dwh_id: row.id,
    name: row.name,
    user_id: row.user_id,
    state: row.paused_at === null ? 'active' : 'paused',
    paused_at: row.paused_at === null ? null : isoTime(new Date(row.paused_at)),
    schedule_type: row.schedule_type,
    schedule_option: row.schedule_option ?? '',
    timezone: row.timezone,
    next_run_at: next === null ? null : isoTime(new Date(next)),
    last_run: latest ? summary(latest) : null,
    rows_moved: await rowsMoved(deps, row),
    created_at: isoTime(new Date(row.created_at)),
  };
}

/**
 * Deletes the integration; with `dropTables` its target tables and their rows too. Dropping waits for no
 * run: while a table is still loading it is refused (409 naming the tables), since the run would write
 * into the table after it is gone.
 */
export async function deleteWithTables(
  deps: AppDeps,
  row: IntegrationRow,
  dropTables: boolean,
): Promise<{ dropped: string[] }> {
  if (dropTables) {
    const busy: string[] = [];
    for (const s of await integrationSessions(deps, row)) {
      const job = await inFlightJob(deps.storage.db, s);
      if (job) busy.push(`${s.table_name} (job ${job.id} ${job.status})`);
    }
    if (busy.length > 0) {
      throw conflict(
        `A run of "${row.name}" is still loading ${busy.join(', ')}; wait for it to end, then delete the sync with its tables.`,
      );
    }
  }
  await deleteIntegration(deps, row);
  if (!dropTables) return { dropped: [] };
  const { database: name, tables } = targetTables(row);
  const database = await findDatabase(deps.storage.db, row.account_id, name);
  const dropped: string[] = [];
  if (!database) return { dropped };
  for (const t of tables) {
    const table = await findTable(deps.storage.db, row.account_id, database.id, t);
    if (!table) continue;
    await deleteTable(deps, database, table);
    dropped.push(`${name}.${t}`);
  }
  return { dropped };
}

/** The statuses of integrations (the caller's own or every one), newest first. */
export async function integrationStatuses(deps: AppDeps, rows: IntegrationRow[]): Promise<IntegrationStatus[]> {
  const out: IntegrationStatus[] = [];
  for (const row of rows) out.push(await integrationStatus(deps, row));
  return out;
}
