import type { AuditEvent } from '@svc/contracts';
import { expect } from 'vitest';
import { many, sql } from '../../platform/storage';
import type { Harness } from '../../testing/harness';

export interface StoredEntry {
  id: number;
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  reason: string | null;
  details: Record<string, unknown> | null;
}

/** Every entry of the account, oldest first, read from the table itself. */
export async function storedEntries(h: Harness, accountId = h.admin.accountId): Promise<StoredEntry[]> {
  const rows = await many<Omit<StoredEntry, 'details'> & { details: string | null }>(
    h.deps.storage.db,
    sql`SELECT id, actor, action, target, outcome, reason, details FROM audit_events
         WHERE account_id = ${accountId} ORDER BY id`,
  );
  return rows.map((r) => ({ ...r, details: r.details ? (JSON.parse(r.details) as Record<string, unknown>) : null }));
}

/**
 * Runs `act` and checks that it appended exactly one entry to the account's log, of `action`; returns it.
 * `act` must succeed (it is given the chance to assert its own answer).
 */
export async function expectOneEntry(
  h: Harness,
  action: string,
  act: () => Promise<unknown>,
  accountId = h.admin.accountId,
): Promise<StoredEntry> {
  const before = await storedEntries(h, accountId);
  await act();
  const added = (await storedEntries(h, accountId)).slice(before.length);
  expect(
    added.map((e) => e.action),
    `${action} should write exactly one entry`,
  ).toEqual([action]);
  return added[0] as StoredEntry;
}

/** The log as the API answers it (administrators), with a query string. */
export async function auditLog(h: Harness, query = '', key = h.admin.masterKey) {
  const res = await h.call('GET', `/v3/account/audit_log${query}`, { key });
  if (res.status !== 200) throw new Error(`audit_log answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { events: AuditEvent[]; next_before: number | null };
}
