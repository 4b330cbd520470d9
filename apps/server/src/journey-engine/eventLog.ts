import type { EngineEvent } from '@svc/journey-engine';
import type { Executor, Row } from '../platform/storage';

/** The journey's profile event log (`journey_profile_events`), read back as the engine's events. */

/** The columns of a `journey_profile_events` row the log reads, its type narrowed to the engine's. */
type EventRow = Omit<Row<'journey_profile_events'>, 'account_id' | 'journey_id' | 'run_id' | 'type'> & {
  type: EngineEvent['type'];
};

function eventOf(r: EventRow): EngineEvent {
  const e: EngineEvent = { at: r.at, profileKey: r.profile_key, type: r.type };
  if (r.stage_id !== null) e.stageId = r.stage_id;
  if (r.step_id !== null) e.stepId = r.step_id;
  if (r.branch_id !== null) e.branchId = r.branch_id;
  if (r.variant_id !== null) e.variantId = r.variant_id;
  if (r.activation_id !== null) e.activationId = r.activation_id;
  if (r.segment_id !== null) e.segmentId = r.segment_id;
  if (r.reason !== null) e.reason = r.reason as EngineEvent['reason'];
  if (r.criterion_index !== null) e.criterionIndex = r.criterion_index;
  if (r.bucket !== null) e.bucket = r.bucket;
  if (r.kept !== null) e.kept = r.kept === 1;
  if (r.due_at !== null) e.dueAt = r.due_at;
  return e;
}

/** Rows read per statement by eventsBetween. */
const EVENT_PAGE = 10_000;

/** The journey's profile events with `from <= at <= to`, oldest first, read in pages of EVENT_PAGE rows. */
export async function eventsBetween(ex: Executor, accountId: number, journeyId: number, from: number, to: number) {
  const events: EngineEvent[] = [];
  for (let after = 0; ; ) {
    const rows = await ex
      .selectFrom('journey_profile_events')
      .select([
        'id',
        'at',
        'profile_key',
        'type',
        'stage_id',
        'step_id',
        'branch_id',
        'variant_id',
        'activation_id',
        'segment_id',
        'reason',
        'criterion_index',
        'bucket',
        'kept',
        'due_at',
      ])
      .where('account_id', '=', accountId)
      .where('journey_id', '=', journeyId)
      .where((w) => w.between('at', from, to))
      .where('id', '>', after)
      .orderBy('id')
      .limit(EVENT_PAGE)
      .$narrowType<Pick<EventRow, 'type'>>()
      .execute();
    for (const r of rows) events.push(eventOf(r));
    const last = rows[rows.length - 1];
    if (!last || rows.length < EVENT_PAGE) return events;
    after = last.id;
  }
}
