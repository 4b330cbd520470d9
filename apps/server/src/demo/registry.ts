import type { DemoItem } from '@svc/contracts';
import type { Db } from '../platform/db';

/** What the demo created in an account (migration 0011): the banner lists it, the delete action removes it. */

export function recordDemoItem(db: Db, accountId: number, item: DemoItem, now: number): void {
  db.prepare('INSERT OR REPLACE INTO demo_items (account_id, kind, ref, label, created_at) VALUES (?, ?, ?, ?, ?)').run(
    accountId,
    item.kind,
    item.ref,
    item.label,
    now,
  );
}

export function demoItems(db: Db, accountId: number): DemoItem[] {
  return db
    .prepare('SELECT kind, ref, label FROM demo_items WHERE account_id = ? ORDER BY created_at, rowid')
    .all(accountId) as DemoItem[];
}

export function forgetDemoItem(db: Db, accountId: number, item: Pick<DemoItem, 'kind' | 'ref'>): void {
  db.prepare('DELETE FROM demo_items WHERE account_id = ? AND kind = ? AND ref = ?').run(
    accountId,
    item.kind,
    item.ref,
  );
}
