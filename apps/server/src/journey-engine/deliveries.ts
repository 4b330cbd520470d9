import { findParentSegment, profileRows, segmentProfileKeys } from '../audiences';
import {
  type ActivationRow,
  activationsOf,
  type JourneyRow,
  paramsOf,
  type WebhookSettings,
  webhookSettingsOf,
} from '../journeys';
import type { AppDeps } from '../platform/context';
import { scheduleDue } from '../platform/schedule';
import { type Executor, one, type Row, sql, transaction, tryLock } from '../platform/storage';
import { listResults } from '../results';
import { type Outcome, send } from './deliveryTargets';

/**
 * Activation deliveries: the profiles queued by Activation steps go out on the activation's schedule to
 * its result connection (deliveryTargets.ts), with the chosen columns (or all). Every attempt is a
 * `journey_deliveries` row (time, count, status, target, error). Delivered queue entries point at their
 * delivery; after a failure they stay queued and are tried again with backoff (1, 2, 4 … minutes, at
 * most an hour) on later ticks of the service clock. `notifyOn` (values containing "success", or
 * "fail"/"error") with `emailRecipients` put a message in the notifications outbox.
 */

const FIRST_RETRY_MS = 60_000;
/** Queue entries marked delivered per statement. */
const MARK_SLICE = 1000;
const MAX_RETRY_MS = 3_600_000;

/** Narrows a delivery's `status` to the two it takes (`$narrowType`; nothing is checked at run time). */
type Statused = { status: 'success' | 'error' };

/** A `journey_deliveries` row without its account and journey, its status narrowed. */
export type DeliveryRow = Omit<Row<'journey_deliveries'>, 'account_id' | 'journey_id' | 'status'> & Statused;

function pendingOf(ex: Executor, row: JourneyRow, activationId: string) {
  return ex
    .selectFrom('journey_activation_queue')
    .select(['id', 'profile_key', 'queued_at'])
    .where('account_id', '=', row.account_id)
    .where('journey_id', '=', row.id)
    .where('activation_id', '=', activationId)
    .where('delivery_id', 'is', null)
    .orderBy('id')
    .execute();
}

/** Failures since the last success, newest first. */
async function recentFailures(ex: Executor, row: JourneyRow, activationId: string): Promise<DeliveryRow[]> {
  const rows = await ex
    .selectFrom('journey_deliveries')
    .selectAll()
    .where('account_id', '=', row.account_id)
    .where('journey_id', '=', row.id)
    .where('activation_id', '=', activationId)
    .orderBy('id', 'desc')
    .limit(20)
    .$narrowType<Statused>()
    .execute();
  const failures: DeliveryRow[] = [];
  for (const r of rows) {
    if (r.status !== 'error') break;
    failures.push(r);
  }
  return failures;
}

/** The rows to send: one per profile, the chosen attribute columns (or all), and where it came from. */
async function rowsFor(deps: AppDeps, row: JourneyRow, activation: ActivationRow, keys: string[], at: number) {
  const params = paramsOf(activation);
  const parent = await findParentSegment(deps, row.account_id, row.parent_segment_id);
  const keyColumn = parent?.key ?? 'profile_key';
  const views = new Map((await profileRows(deps, row.account_id, row.parent_segment_id, keys)).map((v) => [v.key, v]));
  // A body template picks its own fields, so it may use any column.
  const templated = typeof params.connectorConfig?.bodyTemplate === 'string';
  const wanted = params.allColumns || templated ? null : new Set(params.columns);
  return keys.map((key) => {
    const out: Record<string, unknown> = { [keyColumn]: key };
    for (const [name, value] of Object.entries(views.get(key)?.attributes ?? {})) {
      if (name !== keyColumn && (wanted === null || wanted.has(name))) out[name] = value;
    }
    out.journey_id = String(row.id);
    out.activation_id = String(activation.id);
    out.time = Math.floor(at / 1000);
    return out;
  });
}

async function notify(
  ex: Executor,
  row: JourneyRow,
  activation: ActivationRow,
  delivery: { id: number; at: number; count: number },
  outcome: Outcome,
) {
  const { id: deliveryId, count } = delivery;
  const params = paramsOf(activation);
  const wants = (pattern: RegExp) => params.notifyOn.some((n) => pattern.test(n));
  const failed = outcome.error !== null;
  if (params.emailRecipients.length === 0 || !wants(failed ? /fail|error/i : /success/i)) return;
  const subject = failed
    ? `Activation "${params.name}" of journey ${row.name} failed`
    : `Activation "${params.name}" of journey ${row.name} delivered ${count} profiles`;
  const body = failed
    ? `Delivery ${deliveryId} to ${outcome.target} failed: ${outcome.error} It will be tried again.`
    : `Delivery ${deliveryId} sent ${count} profiles to ${outcome.target}.`;
  await ex
    .insertInto('journey_notifications')
    .values({
      account_id: row.account_id,
      journey_id: row.id,
      activation_id: String(activation.id),
      delivery_id: deliveryId,
      created_at: delivery.at,
      recipients: JSON.stringify(params.emailRecipients),
      subject,
      body,
    })
    .execute();
}

/** The activation's webhook settings with header values opened, or why they cannot be. */
function openSettings(deps: AppDeps, activation: ActivationRow): WebhookSettings | string {
  try {
    return webhookSettingsOf(paramsOf(activation).connectorConfig, deps.config.secret);
  } catch (err) {
    return `A header of this activation cannot be used: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * Sends what is due for one activation; returns the delivery id, or null when nothing was due (or another
 * delivery of the same activation is under way). The activation's lock keeps a Run now and a schedule tick,
 * on this node or another, from sending the same queue twice.
 */
async function deliverActivation(
  deps: AppDeps,
  row: JourneyRow,
  activation: ActivationRow,
  at: number,
): Promise<number | null> {
  const lock = `journey-engine.delivery:${row.account_id}:${row.id}:${activation.id}`;
  const attempt = await tryLock(deps.storage, lock, () => deliverOnce(deps, row, activation, at));
  return attempt.ran ? attempt.value : null;
}

async function deliverOnce(
  deps: AppDeps,
  row: JourneyRow,
  activation: ActivationRow,
  at: number,
): Promise<number | null> {
  const activationId = String(activation.id);
  const db = deps.storage.db;
  const pending = await pendingOf(db, row, activationId);
  if (pending.length === 0) return null;
  const params = paramsOf(activation);
  const oldest = Math.min(...pending.map((p) => p.queued_at));
  if (!scheduleDue(params.scheduleType, params.scheduleOption, params.timezone, oldest, at)) return null;
  const failures = await recentFailures(db, row, activationId);
  const last = failures[0];
  if (last && at < last.at + Math.min(FIRST_RETRY_MS * 2 ** (failures.length - 1), MAX_RETRY_MS)) return null;

  const keys = [...new Set(pending.map((p) => p.profile_key))];
  const connection = (await listResults(db, row.account_id)).find(
    (r) => r.name === params.connectionId || String(r.id) === params.connectionId,
  );
  const env = { deps, accountId: row.account_id, journeyId: String(row.id), activationId, at };
  const webhook = connection && /^https?:\/\//i.test(connection.url) ? openSettings(deps, activation) : undefined;
  const outcome: Outcome = !connection
    ? { target: '', error: `The result connection "${params.connectionId}" no longer exists; choose another.` }
    : typeof webhook === 'string'
      ? { target: new URL(connection.url).origin, error: webhook }
      : await send(env, connection.url, await rowsFor(deps, row, activation, keys, at), webhook);
  return transaction(deps.storage, async (tx) => {
    const { id } = await tx
      .insertInto('journey_deliveries')
      .values({
        account_id: row.account_id,
        journey_id: row.id,
        activation_id: activationId,
        at,
        status: outcome.error === null ? 'success' : 'error',
        profiles: keys.length,
        target: outcome.target || null,
        error: outcome.error,
        response_code: outcome.responseCode ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (outcome.error === null) {
      // In slices, so no statement binds more parameters than either backend takes.
      for (let i = 0; i < pending.length; i += MARK_SLICE) {
        const ids = pending.slice(i, i + MARK_SLICE).map((p) => p.id);
        await tx
          .updateTable('journey_activation_queue')
          .set({ delivery_id: id })
          .where('account_id', '=', row.account_id)
          .where('id', 'in', ids)
          .execute();
      }
    }
    if (outcome.file) {
      const { contentType, body } = outcome.file;
      await tx
        .insertInto('journey_delivery_files')
        .values({ delivery_id: id, account_id: row.account_id, content_type: contentType, body })
        .execute();
    }
    await notify(tx, row, activation, { id, at, count: keys.length }, outcome);
    return id;
  });
}

/** Delivers every due activation of a running journey (paused journeys deliver nothing). */
export async function deliverDue(deps: AppDeps, row: JourneyRow, at: number) {
  if (row.state !== 'launched' || row.paused === 1) return [];
  const done: number[] = [];
  for (const activation of await activationsOf(deps.storage.db, row.account_id, row.id)) {
    const id = await deliverActivation(deps, row, activation, at);
    if (id !== null) done.push(id);
  }
  return done;
}

/**
 * Sends one profile of the parent segment, marked as a test, to a webhook URL with the given method, headers
 * and body template, and says how it answered (status and the start of its body). Nothing is recorded or queued. Only webhooks are tested: a table or CSV target gets its first real delivery.
 */
export async function testDelivery(
  deps: AppDeps,
  row: JourneyRow,
  url: string,
  webhook?: WebhookSettings,
): Promise<Outcome & { profiles: number }> {
  const at = deps.clock.now().getTime();
  const parent = await findParentSegment(deps, row.account_id, row.parent_segment_id);
  const keyColumn = parent?.key ?? 'profile_key';
  const [firstKey] = parent
    ? await segmentProfileKeys(deps, row.account_id, parent.id, { type: 'And', conditions: [] }, new Date(at))
    : [];
  const [first] =
    firstKey === undefined ? [] : await profileRows(deps, row.account_id, row.parent_segment_id, [firstKey]);
  const profile: Record<string, unknown> = first
    ? { [keyColumn]: first.key, ...first.attributes }
    : { [keyColumn]: 'test-profile' };
  const outcome = await send(
    { deps, accountId: row.account_id, journeyId: String(row.id), activationId: 'test', at, keepExcerpt: true },
    url,
    [{ ...profile, journey_id: String(row.id), activation_id: 'test', time: Math.floor(at / 1000), test: true }],
    webhook,
  );
  return { ...outcome, profiles: 1 };
}

export interface DeliveryReport {
  /** Profiles sent by the deliveries made now. */
  delivered: number;
  /** Profiles whose delivery failed now; they stay queued and are tried again with backoff. */
  failed: number;
  /** Profiles still queued that were not tried now: their activation's schedule is not due yet, or a retry waits. */
  waiting: number;
  /** The first failure's reason, when one failed. */
  error: string | null;
}

/** Delivers what is due right after an on-demand run, and says what went and what still waits. */
export async function deliverAfterRun(deps: AppDeps, row: JourneyRow, at: number): Promise<DeliveryReport> {
  const ids = await deliverDue(deps, row, at);
  const db = deps.storage.db;
  const made = ids.length
    ? await db
        .selectFrom('journey_deliveries')
        .select(['status', 'profiles', 'error'])
        .where('account_id', '=', row.account_id)
        .where('id', 'in', ids)
        .orderBy('id')
        .execute()
    : [];
  const sum = (status: string) => made.filter((d) => d.status === status).reduce((n, d) => n + d.profiles, 0);
  // `||` joins text on both backends; the builder has no word for it.
  const counted = await one<{ n: number }>(
    db,
    sql`SELECT COUNT(DISTINCT activation_id || ':' || profile_key) AS n FROM journey_activation_queue
        WHERE account_id = ${row.account_id} AND journey_id = ${row.id} AND delivery_id IS NULL`,
  );
  const pending = counted?.n ?? 0;
  const failed = sum('error');
  return {
    delivered: sum('success'),
    failed,
    waiting: Math.max(pending - failed, 0),
    error: made.find((d) => d.error !== null)?.error ?? null,
  };
}

export const MAX_DELIVERIES_PER_PAGE = 500;

/** Whether a cursor's key can be a delivery's id. */
export const isDeliveryId = (key: string): boolean => /^[1-9][0-9]{0,14}$/.test(key);

/** A page of an activation's deliveries, newest first (keyset on the id: as fast at any depth). */
export interface DeliveriesPage {
  /** Only deliveries older than this one (its id). */
  beforeId?: number | undefined;
  status?: 'success' | 'error' | undefined;
  limit: number;
}

/** The page's rows and whether older ones exist (one row more is read to know). */
export async function deliveriesOf(
  ex: Executor,
  accountId: number,
  journeyId: number,
  activationId: string,
  page: DeliveriesPage,
): Promise<{ rows: DeliveryRow[]; more: boolean }> {
  const { beforeId, status } = page;
  const rows = await ex
    .selectFrom('journey_deliveries')
    .select(['id', 'activation_id', 'at', 'status', 'profiles', 'target', 'error', 'response_code'])
    .where('journey_id', '=', journeyId)
    .where('activation_id', '=', activationId)
    .where('account_id', '=', accountId)
    .$if(beforeId !== undefined, (q) => q.where('id', '<', beforeId ?? 0))
    .$if(status !== undefined, (q) => q.where('status', '=', status ?? ''))
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .$narrowType<Statused>()
    .execute();
  return { rows: rows.slice(0, page.limit), more: rows.length > page.limit };
}

export async function deliveryFile(ex: Executor, accountId: number, journeyId: number, deliveryId: number) {
  const file = await ex
    .selectFrom('journey_delivery_files as f')
    .innerJoin('journey_deliveries as d', (j) =>
      j.onRef('d.account_id', '=', 'f.account_id').onRef('d.id', '=', 'f.delivery_id'),
    )
    .select(['f.content_type', 'f.body'])
    .where('f.account_id', '=', accountId)
    .where('d.journey_id', '=', journeyId)
    .where('f.delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return file ?? null;
}

export function notificationsOf(ex: Executor, accountId: number, journeyId: number, limit = 100) {
  return ex
    .selectFrom('journey_notifications')
    .select(['id', 'activation_id', 'delivery_id', 'created_at', 'recipients', 'subject', 'body'])
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
