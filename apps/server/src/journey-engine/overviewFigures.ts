import { type Executor, many, sql } from '../platform/storage';

/**
 * Entries and goals reached of journeys, all time: sums of the day counts the runs keep (figureCounts.ts,
 * decision 0054), a few rows per journey and day, so no event or profile is read. Profiles that re-enter count
 * again.
 */
export async function journeyEntriesAndGoals(
  ex: Executor,
  accountId: number,
  journeyIds: readonly number[],
): Promise<Map<number, { entered: number; goalReached: number }>> {
  const out = new Map(journeyIds.map((id) => [id, { entered: 0, goalReached: 0 }]));
  if (journeyIds.length === 0) return out;
  const rows = await many<{ journey_id: number | string; kind: string; n: number | string }>(
    ex,
    sql`SELECT journey_id, kind, SUM(n) AS n FROM journey_figure_days
        WHERE account_id = ${accountId} AND journey_id IN (${sql.join([...journeyIds])}) AND kind IN ('entered', 'goal')
        GROUP BY journey_id, kind`,
  );
  for (const r of rows) {
    const figures = out.get(Number(r.journey_id));
    if (!figures) continue;
    if (r.kind === 'entered') figures.entered = Number(r.n);
    else figures.goalReached = Number(r.n);
  }
  return out;
}
