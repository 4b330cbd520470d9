import type { EngineEvent } from '@svc/journey-engine';
import { type Executor, many, sql } from '../../platform/storage';
import { eventsOfRow } from '../eventLog';

/** A logged event with the journey and run it belongs to. */
export type LoggedEvent = EngineEvent & { journeyId: number; runId: number };

/** A row of `journey_run_events` as either driver returns it (PostgreSQL's bigints as text). */
export interface RunEventRow {
  journey_id: number | string;
  run_id: number | string;
  at: number | string;
  profile_key: string;
  events: string;
}

/** The rows' events in log order, each with its journey and run. */
export function eventsOfRows(rows: RunEventRow[]): LoggedEvent[] {
  return rows.flatMap((r) =>
    eventsOfRow(Number(r.at), r.profile_key, r.events).map((e) => ({
      ...e,
      journeyId: Number(r.journey_id),
      runId: Number(r.run_id),
    })),
  );
}

/** Every event of the log (of one journey when given), in log order, as the engine gave them. */
export async function loggedEventsOf(db: Executor, journeyId?: number): Promise<LoggedEvent[]> {
  const rows = await many<RunEventRow>(
    db,
    sql`SELECT journey_id, run_id, at, profile_key, events FROM journey_run_events
        ${journeyId === undefined ? sql`` : sql`WHERE journey_id = ${journeyId}`} ORDER BY id`,
  );
  return eventsOfRows(rows);
}
