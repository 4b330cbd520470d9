import type { Executor } from '../platform/storage';

/**
 * Figures of an account's data from what the control database keeps (the catalog's figures and `ingest_days`,
 * migration 39): no customer row is read.
 */

const DAY_MS = 86_400_000;

/** Rows ingested on each of the `days` UTC days ending with `now`'s, oldest first, days without rows as 0. */
export async function ingestedByDay(
  ex: Executor,
  accountId: number,
  now: number,
  days: number,
): Promise<{ day: string; records: number }[]> {
  const last = Math.floor(now / DAY_MS);
  const first = last - days + 1;
  const rows = await ex
    .selectFrom('ingest_days')
    .select(['day', 'records'])
    .where('account_id', '=', accountId)
    .where((w) => w.between('day', first, last))
    .execute();
  const byDay = new Map(rows.map((r) => [Number(r.day), Number(r.records)]));
  return Array.from({ length: days }, (_, i) => ({
    day: new Date((first + i) * DAY_MS).toISOString().slice(0, 10),
    records: byDay.get(first + i) ?? 0,
  }));
}

/** The account's largest tables by stored size, then rows. */
export async function biggestTables(
  ex: Executor,
  accountId: number,
  limit: number,
): Promise<{ database: string; table: string; records: number; bytes: number }[]> {
  const rows = await ex
    .selectFrom('tables as t')
    .innerJoin('databases as d', (j) =>
      j.onRef('d.account_id', '=', 't.account_id').onRef('d.id', '=', 't.database_id'),
    )
    .select(['d.name as database', 't.name', 't.count', 't.estimated_storage_size as size'])
    .where('t.account_id', '=', accountId)
    .orderBy('t.estimated_storage_size', 'desc')
    .orderBy('t.count', 'desc')
    .orderBy('d.name')
    .orderBy('t.name')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ database: r.database, table: r.name, records: Number(r.count), bytes: Number(r.size) }));
}
