import type { AuditAction, AuditEvent } from '@svc/contracts';
import { z } from 'zod';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { type Executor, many, run, sql } from '../platform/storage';
import { parseStored } from '../platform/storedJson';
import { isoTime } from '../platform/time';

/** An entry's details as stored: an object of what the action changed or concerned. */
const details = z.record(z.string(), z.unknown());

/**
 * The account's audit log: every administrative and security event. It is append-only: this module has
 * the one INSERT and no UPDATE or DELETE, and the database refuses both (migration 0017's triggers). Rows
 * keep the actor's e-mail as text, so they outlive the user.
 */

export interface AuditEntry {
  accountId: number;
  actorUserId: number | null;
  /** The actor as a person reads it: an e-mail, an address, or "identity provider" for SSO sign-ins. */
  actor: string;
  action: AuditAction;
  target?: string | null;
  outcome: 'success' | 'failure';
  /** A stable code for refusals, e.g. `wrong_password`. */
  reason?: string | null;
  details?: Record<string, unknown> | null;
}

/** Appends an entry; `ex` is the open transaction when the change it records is made in one. */
export async function recordAudit(deps: AppDeps, e: AuditEntry, ex: Executor = deps.storage.db): Promise<void> {
  await run(
    ex,
    sql`INSERT INTO audit_events (account_id, at, actor_user_id, actor, action, target, outcome, reason, details)
        VALUES (${e.accountId}, ${deps.clock.now().getTime()}, ${e.actorUserId}, ${e.actor}, ${e.action},
                ${e.target ?? null}, ${e.outcome}, ${e.reason ?? null}, ${e.details ? JSON.stringify(e.details) : null})`,
  );
}

export interface ActionRecord {
  target?: string | null;
  details?: Record<string, unknown>;
  outcome?: 'success' | 'failure';
  reason?: string;
}

/** An entry about a named object: target `journey 12 “Welcome”`, and `journey_id: 12` among the details. */
export function about(
  kind: string,
  id: number | string,
  name: string,
  details: Record<string, unknown> = {},
): ActionRecord {
  return { target: `${kind} ${id} “${name}”`, details: { [`${kind}_id`]: id, ...details } };
}

/**
 * Appends what a signed-in user or an API key did. `details.via` says how they called: `console`, or the
 * type and id of the key (never the key itself).
 */
export async function auditAction(
  deps: AppDeps,
  p: Principal,
  action: AuditAction,
  what: ActionRecord = {},
  ex: Executor = deps.storage.db,
): Promise<void> {
  const via = p.via === 'session' ? 'console' : p.via === 'password' ? 'password' : `${p.via} key ${p.keyId}`;
  await recordAudit(
    deps,
    {
      accountId: p.accountId,
      actorUserId: p.userId,
      actor: p.email,
      action,
      target: what.target ?? null,
      outcome: what.outcome ?? 'success',
      reason: what.reason ?? null,
      details: { ...what.details, via },
    },
    ex,
  );
}

/** A filter as the routes parsed it: times in Unix ms. */
export interface AuditQuery {
  actor?: string | undefined;
  actions?: readonly string[] | undefined;
  from?: number | undefined;
  to?: number | undefined;
  /** Only entries older than this id (the page cursor). */
  before?: number | undefined;
}

interface AuditRow {
  id: number;
  at: number;
  actor: string;
  action: string;
  target: string | null;
  outcome: 'success' | 'failure';
  reason: string | null;
  details: string | null;
}

function toEvent(r: AuditRow): AuditEvent {
  return {
    id: r.id,
    at: isoTime(new Date(r.at)),
    actor: r.actor,
    action: r.action,
    target: r.target,
    outcome: r.outcome,
    reason: r.reason,
    details: r.details ? parseStored(details, r.details, 'audit_events.details') : null,
  };
}

/** Entries of the account that match, newest first, at most `limit`. */
async function matching(deps: AppDeps, accountId: number, q: AuditQuery, limit: number): Promise<AuditRow[]> {
  const where = [sql`account_id = ${accountId}`];
  if (q.before !== undefined) where.push(sql`id < ${q.before}`);
  if (q.actor !== undefined) where.push(sql`lower(actor) = lower(${q.actor})`);
  if (q.actions?.length) where.push(sql`action IN (${sql.join(q.actions)})`);
  if (q.from !== undefined) where.push(sql`at >= ${q.from}`);
  if (q.to !== undefined) where.push(sql`at < ${q.to}`);
  return many<AuditRow>(
    deps.storage.db,
    sql`SELECT id, at, actor, action, target, outcome, reason, details FROM audit_events
         WHERE ${sql.join(where, sql` AND `)} ORDER BY id DESC LIMIT ${limit}`,
  );
}

/** One page, newest first; `next_before` reads the next (older) page, null after the last. */
export async function listAudit(
  deps: AppDeps,
  accountId: number,
  q: AuditQuery,
  limit: number,
): Promise<{ events: AuditEvent[]; next_before: number | null }> {
  const rows = await matching(deps, accountId, q, limit + 1);
  const page = rows.slice(0, limit);
  return {
    events: page.map(toEvent),
    next_before: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

/**
 * Every matching entry, newest first, read `pageSize` at a time. Entries appended while the export runs
 * are newer than its first page, so they are not in it: the export is the log as it was when it began.
 */
export async function* everyEntry(deps: AppDeps, accountId: number, q: AuditQuery, pageSize = 1000) {
  let before = q.before;
  for (;;) {
    const rows = await matching(deps, accountId, { ...q, before }, pageSize);
    for (const r of rows) yield toEvent(r);
    if (rows.length < pageSize) return;
    before = rows[rows.length - 1]?.id;
  }
}
