import type { AuditEvent } from '@svc/contracts';
import type { AppDeps } from '../platform/context';
import { type Executor, many, run, sql } from '../platform/storage';
import { isoTime } from '../platform/time';

/**
 * The account's audit log: who changed SSO settings and user SSO modes, and every SSO sign-in with its
 * outcome. Rows keep the actor's e-mail as text, so they survive the user's removal.
 */

export interface AuditEntry {
  accountId: number;
  actorUserId: number | null;
  /** The actor as a person reads it: an e-mail, or "identity provider" for sign-ins. */
  actor: string;
  action: string;
  target?: string | null;
  outcome: 'success' | 'failure';
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

/** Newest first, `limit` at a time; `before` (an event id) pages back. */
export async function listAudit(
  deps: AppDeps,
  accountId: number,
  opts: { limit: number; before?: number | undefined },
): Promise<{ events: AuditEvent[]; next_before: number | null }> {
  const rows = await many<AuditRow>(
    deps.storage.db,
    sql`SELECT id, at, actor, action, target, outcome, reason, details FROM audit_events
         WHERE account_id = ${accountId} ${opts.before === undefined ? sql`` : sql`AND id < ${opts.before}`}
         ORDER BY id DESC LIMIT ${opts.limit + 1}`,
  );
  const page = rows.slice(0, opts.limit);
  return {
    events: page.map((r) => ({
      id: r.id,
      at: isoTime(new Date(r.at)),
      actor: r.actor,
      action: r.action,
      target: r.target,
      outcome: r.outcome,
      reason: r.reason,
      details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null,
    })),
    next_before: rows.length > opts.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}
