import type { EngineEvent } from '@svc/journey-engine';
import { type Executor, many, sql } from '../../platform/storage';
import { eventsOfRow } from '../eventLog';

/** A logged event with the journey and run it belongs to. */
export type LoggedEvent = EngineEvent & { journeyId: number; runId: number };

/** Every event of the log (of one journey when given), in log order, as the engine gave them. */
export async function loggedEventsOf(db: Executor, journeyId?: number): Promise<LoggedEvent[]> {
  const rows = await many<{ journey_id: number; run_id: number; at: number; profile_key: string; events: string }>(
    db,
    sql`SELECT journey_id, run_id, at, profile_key, events FROM journey_run_events
        ${journeyId === undefined ? sql`` : sql`WHERE journey_id = ${journeyId}`} ORDER BY id`,
  );
  return rows.flatMap((r) =>
    eventsOfRow(Number(r.at), r.profile_key, r.events).map((e) => ({
      ...e,
      journeyId: Number(r.journey_id),
      runId: Number(r.run_id),
    })),
  );
}
