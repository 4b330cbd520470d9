import type { AttemptTable, SessionAttempt, WorkflowRun } from '@svc/contracts';
import { z } from 'zod';
import type { BulkLoadService } from '../bulk-loads';
import { inFlightJob, lockBulkLoad, requestResync } from '../bulk-loads';
import { jobsByIds } from '../jobs';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { claimSlot, type Executor, type Row, transaction } from '../platform/storage';
import { parseStored } from '../platform/storedJson';
import { isoTime } from '../platform/time';
import { type IntegrationRow, integrationRows, integrationSessions } from './integrations';

/** Runs of an integration (session attempts): one bulk load job per table, the status derived from them. */

type Triggered = { trigger: 'manual' | 'schedule' };

/** A row of `dwh_attempts`, its trigger narrowed. */
type AttemptRow = Omit<Row<'dwh_attempts'>, 'trigger'> & Triggered;

const attemptRows = (ex: Executor) => ex.selectFrom('dwh_attempts').selectAll().$narrowType<Triggered>();

/** One table's job of an attempt, as `dwh_attempts.jobs_json` lists them. */
const attemptJobs = z.array(z.object({ bulk_load_name: z.string(), target_table: z.string(), job_id: z.number() }));
type AttemptJob = z.infer<typeof attemptJobs>[number];

/** A table left out of a run because its previous run is still queued or running. */
export interface BusyTable {
  target_table: string;
  bulk_load_name: string;
  job_id: number;
  status: string;
}

/**
 * Starts a run: one job per table, except tables whose previous job is still in flight (a session runs
 * one job at a time, so nothing is read twice); those are reported in `busy`. When every table is busy
 * there is no new run: a manual run answers 409 naming them, a scheduled one is skipped (attempt null).
 */
export async function startAttempt(
  deps: AppDeps,
  service: BulkLoadService,
  row: IntegrationRow,
  userId: number,
  trigger: AttemptRow['trigger'],
  options: { resync?: boolean } = {},
): Promise<{ attempt: AttemptRow | null; busy: BusyTable[] }> {
  const sessions = await integrationSessions(deps, row);
  if (sessions.length === 0)
    throw badRequest('The integration has no tables to load; add one to its advanced configs.');
  const now = deps.clock.now().getTime();
  return transaction(deps.storage, async (tx) => {
    const busy: BusyTable[] = [];
    const jobs: AttemptJob[] = [];
    for (const s of sessions) {
      await lockBulkLoad(tx, s);
      // A table still loading takes the request too: its next run starts from scratch.
      if (options.resync) await requestResync(tx, s, now);
      const job = await inFlightJob(tx, s);
      if (job) {
        busy.push({ target_table: s.table_name, bulk_load_name: s.name, job_id: job.id, status: job.status });
      } else {
        const queued = await service.enqueue(s, userId, 0, tx);
        jobs.push({ bulk_load_name: s.name, target_table: s.table_name, job_id: queued.id });
      }
    }
    if (jobs.length === 0) {
      if (trigger === 'schedule') return { attempt: null, busy };
      throw conflict(
        `Every table of "${row.name}" is still loading from an earlier run (${busy.map((b) => `${b.target_table}: job ${b.job_id} ${b.status}`).join(', ')}); wait for it to end, then run again.`,
        { already_running: busy },
      );
    }
    const { id } = await tx
      .insertInto('dwh_attempts')
      .values({
        account_id: row.account_id,
        integration_id: row.id,
        trigger,
        resync: options.resync ? 1 : 0,
        jobs_json: JSON.stringify(jobs),
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      attempt: (await attemptRows(tx).where('id', '=', id).executeTakeFirst()) as AttemptRow,
      busy,
    };
  });
}

async function describe(deps: AppDeps, a: AttemptRow): Promise<SessionAttempt> {
  const jobs = parseStored(attemptJobs, a.jobs_json, 'dwh_attempts.jobs_json');
  const ids = jobs.map((j) => j.job_id);
  const found = ids.length === 0 ? [] : await jobsByIds(deps.storage.db, a.account_id, ids);
  const byId = new Map(found.map((f) => [Number(f.id), f]));
  const facts = jobs.map((j) => byId.get(j.job_id));
  const now = deps.clock.now().getTime();
  const tables: AttemptTable[] = jobs.map((j, i) => {
    const f = facts[i];
    const start = f?.start_at ?? null;
    const end = f?.end_at ?? null;
    return {
      target_table: j.target_table,
      bulk_load_name: j.bulk_load_name,
      job_id: j.job_id,
      status: f?.status ?? 'error',
      records: f?.num_records ?? null,
      error: f ? (f.status === 'success' ? null : f.stderr) : 'The job of this table is gone.',
      started_at: start === null ? null : isoTime(new Date(start)),
      finished_at: end === null ? null : isoTime(new Date(end)),
      duration_seconds: start === null ? null : seconds((end ?? now) - start),
    };
  });
  const statuses = tables.map((t) => t.status);
  const done = statuses.every((s) => s === 'success' || s === 'error' || s === 'killed');
  const status = !done
    ? statuses.every((s) => s === 'queued')
      ? 'queued'
      : 'running'
    : statuses.every((s) => s === 'success')
      ? 'success'
      : 'error';
  const ends = facts.map((f) => f?.end_at ?? 0);
  const finished = done ? Math.max(a.created_at, ...ends) : null;
  return {
    attempt_id: a.id,
    attempt_name: `dwh_${a.integration_id}_attempt_${a.id}`,
    session_id: a.id,
    session_time: isoTime(new Date(a.created_at)),
    status,
    done,
    trigger: a.trigger,
    resync: Number(a.resync) === 1,
    created_at: isoTime(new Date(a.created_at)),
    finished_at: finished === null ? null : isoTime(new Date(finished)),
    records: tables.reduce((sum, t) => sum + (t.records ?? 0), 0),
    duration_seconds: seconds((finished ?? now) - a.created_at),
    tables,
  };
}

/** Seconds to a tenth, never negative (clocks of two nodes may disagree a little). */
const seconds = (ms: number) => Math.max(0, Math.round(ms / 100) / 10);

/** One run of the integration, or 404. */
export async function getAttempt(deps: AppDeps, row: IntegrationRow, attemptId: unknown): Promise<SessionAttempt> {
  const n = Number(attemptId);
  const a = Number.isSafeInteger(n)
    ? await attemptRows(deps.storage.db)
        .where('account_id', '=', row.account_id)
        .where('integration_id', '=', row.id)
        .where('id', '=', n)
        .executeTakeFirst()
    : undefined;
  if (!a) throw notFound('run');
  return describe(deps, a);
}

export async function listAttempts(deps: AppDeps, row: IntegrationRow, limit = 100): Promise<SessionAttempt[]> {
  const rows = await attemptRows(deps.storage.db)
    .where('account_id', '=', row.account_id)
    .where('integration_id', '=', row.id)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const out: SessionAttempt[] = [];
  for (const a of rows) out.push(await describe(deps, a));
  return out;
}

export async function toWorkflowRun(deps: AppDeps, row: IntegrationRow, a: AttemptRow): Promise<WorkflowRun> {
  const d = await describe(deps, a);
  return {
    id: String(a.id),
    status: d.done ? d.status : 'running',
    index: a.id,
    project: { id: String(row.id), name: `dwh_${row.id}` },
    workflow: { id: String(row.id), name: row.name },
    sessionId: String(a.id),
    sessionUuid: `dwh-${row.id}-${a.id}`,
    sessionTime: d.session_time,
    retryAttemptName: null,
    done: d.done,
    success: d.done && d.status === 'success',
    cancelRequested: false,
    createdAt: d.created_at,
    finishedAt: d.finished_at,
  };
}

/** Queues the scheduled runs that came due (each integration's cron in its time zone). */
export async function runDueIntegrations(
  deps: AppDeps,
  service: BulkLoadService,
  now: number,
  next: (cron: string, tz: string, after: number) => number | null,
): Promise<number> {
  const db = deps.storage.db;
  const due = await integrationRows(db)
    .where('cron', 'is not', null)
    .where('user_id', 'is not', null)
    .where('paused_at', 'is', null)
    .orderBy('id')
    .execute();
  let queued = 0;
  for (const row of due) {
    const fire = next(row.cron as string, row.timezone, row.last_fired_at ?? row.created_at);
    if (fire === null || fire > now) continue;
    // Every node sees the firing come due; the one that claims its slot runs it.
    if (!(await claimSlot(db, `dwh_integration:${row.id}:${row.created_at}`, fire, now))) continue;
    await db
      .updateTable('dwh_integrations')
      .set({ last_fired_at: now })
      .where('id', '=', row.id)
      .where('account_id', '=', row.account_id)
      .execute();
    if ((await startAttempt(deps, service, row, row.user_id as number, 'schedule')).attempt) queued++;
  }
  return queued;
}
