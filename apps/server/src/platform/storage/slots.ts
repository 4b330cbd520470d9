import { sql } from 'kysely';
import type { Executor } from './types';

/**
 * Schedules that fire once across nodes: every node that sees a schedule come due claims its firing, the
 * slot `(key, slotAt)`; the primary key lets exactly one of them win. `key` names the schedule (e.g.
 * `bulk_load:12`), `slotAt` the firing's due time in Unix milliseconds (the same on every node, computed
 * from the schedule, never from the node's clock). Returns true only for the node that claimed it.
 */
export async function claimSlot(ex: Executor, key: string, slotAt: number, now: number = Date.now()): Promise<boolean> {
  const row = await ex
    .insertInto('schedule_slots')
    .values({ key, slot_at: slotAt, claimed_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Forgets slots claimed before `before` (their schedules have long moved on); returns how many. With `prefix`,
 * only the slots whose key starts with it (a schedule that fires often keeps its own slots for less long).
 */
export async function pruneSlots(ex: Executor, before: number, prefix?: string): Promise<number> {
  const ofKey = prefix === undefined ? sql`` : sql` AND substr(key, 1, ${prefix.length}) = ${prefix}`;
  const { numAffectedRows } = await sql`DELETE FROM schedule_slots WHERE claimed_at < ${before}${ofKey}`.execute(ex);
  return Number(numAffectedRows ?? 0n);
}
