import { type Executor, many, sql } from '../platform/storage';

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
  const rows = await many<{ day: number | string; records: number | string }>(
    ex,
    sql`SELECT day, records FROM ingest_days WHERE account_id = ${accountId} AND day BETWEEN ${first} AND ${last}`,
  );
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
  const rows = await many<{ database: string; name: string; count: number | string; size: number | string }>(
    ex,
    sql`SELECT d.name AS database, t.name, t.count, t.estimated_storage_size AS size
        FROM tables t JOIN databases d ON d.account_id = t.account_id AND d.id = t.database_id
        WHERE t.account_id = ${accountId}
        ORDER BY t.estimated_storage_size DESC, t.count DESC, d.name, t.name LIMIT ${limit}`,
  );
  return rows.map((r) => ({ database: r.database, table: r.name, records: Number(r.count), bytes: Number(r.size) }));
}
