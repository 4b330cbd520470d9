import type { DemoItem } from '@svc/contracts';
import { type Executor, many, run, sql } from '../platform/storage';

/** What the demo created in an account (migration 0013): the banner lists it, the delete action removes it. */

export async function recordDemoItem(db: Executor, accountId: number, item: DemoItem, now: number): Promise<void> {
  await run(
    db,
    sql`INSERT INTO demo_items (account_id, kind, ref, label, created_at)
        VALUES (${accountId}, ${item.kind}, ${item.ref}, ${item.label}, ${now})
        ON CONFLICT (account_id, kind, ref) DO UPDATE SET label = excluded.label, created_at = excluded.created_at`,
  );
}

/**
 * Oldest first. Items recorded in the same millisecond come in the order the seeder creates them (the table
 * has no id to tell insertion order by, and the same order on both backends matters more than a counter).
 */
export function demoItems(db: Executor, accountId: number): Promise<DemoItem[]> {
  return many<DemoItem>(
    db,
    sql`SELECT kind, ref, label FROM demo_items WHERE account_id = ${accountId}
         ORDER BY created_at,
           CASE kind WHEN 'database' THEN 0 WHEN 'connection' THEN 1 WHEN 'parentSegment' THEN 2
                     WHEN 'journey' THEN 3 ELSE 4 END,
           ref`,
  );
}

export async function forgetDemoItem(
  db: Executor,
  accountId: number,
  item: Pick<DemoItem, 'kind' | 'ref'>,
): Promise<void> {
  await run(
    db,
    sql`DELETE FROM demo_items WHERE account_id = ${accountId} AND kind = ${item.kind} AND ref = ${item.ref}`,
  );
}
