import { type Executor, many, sql } from '../platform/storage';

/**
 * Entries and goals reached of journeys, all time: each a count of one event type's range of the index on
 * (journey_id, type, at) (migration 33), so no profile is read. Profiles that re-enter count again.
 */
export async function journeyEntriesAndGoals(
  ex: Executor,
  accountId: number,
  journeyIds: readonly number[],
): Promise<Map<number, { entered: number; goalReached: number }>> {
  const out = new Map(journeyIds.map((id) => [id, { entered: 0, goalReached: 0 }]));
  if (journeyIds.length === 0) return out;
  const rows = await many<{ journey_id: number | string; type: string; n: number | string }>(
    ex,
    sql`SELECT journey_id, type, count(*) AS n FROM journey_profile_events
        WHERE journey_id IN (${sql.join([...journeyIds])}) AND type IN ('journey_entered', 'goal_reached')
          AND account_id = ${accountId}
        GROUP BY journey_id, type`,
  );
  for (const r of rows) {
    const figures = out.get(Number(r.journey_id));
    if (!figures) continue;
    if (r.type === 'journey_entered') figures.entered = Number(r.n);
    else figures.goalReached = Number(r.n);
  }
  return out;
}
