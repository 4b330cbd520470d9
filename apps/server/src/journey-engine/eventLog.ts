import type { EngineEvent } from '@svc/journey-engine';
import { type ColumnKind, dialectOf, type Executor, type RawBuilder, sql } from '../platform/storage';

/**
 * The journey's profile event log (`journey_run_events`, migration 50): one row per run, profile and time, that
 * profile's events of the run in their order as a JSON array of elements. An element is an array of the event's
 * values at fixed places (ELEMENT), its trailing nulls left out; the row holds the time and the profile.
 */

/** The values of an element, in order: `->> n` reads the n-th in SQL (loggedEvents). */
const ELEMENT = [
  'type',
  'stageId',
  'stepId',
  'branchId',
  'variantId',
  'activationId',
  'segmentId',
  'reason',
  'criterionIndex',
  'bucket',
  'kept',
  'dueAt',
] as const;
type Element = (string | number | null)[];

export const RUN_EVENT_COLUMNS = ['account_id', 'journey_id', 'run_id', 'at', 'profile_key', 'events'];
export const RUN_EVENT_KINDS: ColumnKind[] = ['integer', 'integer', 'integer', 'integer', 'text', 'text'];

function elementOf(e: EngineEvent): Element {
  const values: Element = [
    e.type,
    e.stageId ?? null,
    e.stepId ?? null,
    e.branchId ?? null,
    e.variantId ?? null,
    e.activationId ?? null,
    e.segmentId ?? null,
    e.reason ?? null,
    e.criterionIndex ?? null,
    e.bucket ?? null,
    e.kept === undefined ? null : e.kept ? 1 : 0,
    e.dueAt !== undefined && Number.isFinite(e.dueAt) ? e.dueAt : null,
  ];
  let end = values.length;
  while (end > 1 && values[end - 1] === null) end--;
  return values.slice(0, end);
}

function eventOf(at: number, profileKey: string, v: Element): EngineEvent {
  const e: EngineEvent = { at, profileKey, type: v[0] as EngineEvent['type'] };
  const text = (i: number) => (typeof v[i] === 'string' ? (v[i] as string) : undefined);
  const num = (i: number) => (typeof v[i] === 'number' ? (v[i] as number) : undefined);
  const fields: Partial<EngineEvent> = {
    stageId: text(1),
    stepId: text(2),
    branchId: text(3),
    variantId: text(4),
    activationId: text(5),
    segmentId: text(6),
    reason: text(7) as EngineEvent['reason'],
    criterionIndex: num(8),
    bucket: num(9),
    kept: num(10) === undefined ? undefined : num(10) === 1,
    dueAt: num(11),
  };
  for (const [k, value] of Object.entries(fields)) if (value !== undefined) Object.assign(e, { [k]: value });
  return e;
}

/** The events of a `journey_run_events` row, in order. */
export function eventsOfRow(at: number, profileKey: string, events: string): EngineEvent[] {
  return (JSON.parse(events) as Element[]).map((v) => eventOf(at, profileKey, v));
}

/**
 * The `journey_run_events` rows of a run's events: one per profile and time, the profile's events in the order
 * the run gave them (a run's events all carry its time; events written for a test may not).
 */
export function* runEventRows(
  accountId: number,
  journeyId: number,
  runId: number,
  events: Iterable<EngineEvent>,
): Generator<unknown[]> {
  const byProfile = new Map<string, EngineEvent[]>();
  for (const e of events) {
    const list = byProfile.get(e.profileKey);
    if (list) list.push(e);
    else byProfile.set(e.profileKey, [e]);
  }
  for (const [profileKey, list] of byProfile) {
    for (let i = 0; i < list.length; ) {
      const at = list[i]?.at as number;
      const elements: Element[] = [];
      for (; i < list.length && list[i]?.at === at; i++) elements.push(elementOf(list[i] as EngineEvent));
      yield [accountId, journeyId, runId, at, profileKey, JSON.stringify(elements)];
    }
  }
}

/** Rows read per statement by eventsBetween. */
const EVENT_PAGE = 2_000;

/** The journey's profile events with `from <= at <= to`, in log order, read in pages of EVENT_PAGE rows. */
export async function eventsBetween(ex: Executor, accountId: number, journeyId: number, from: number, to: number) {
  const events: EngineEvent[] = [];
  for (let after = 0; ; ) {
    const rows = await ex
      .selectFrom('journey_run_events')
      .select(['id', 'at', 'profile_key', 'events'])
      .where('account_id', '=', accountId)
      .where('journey_id', '=', journeyId)
      .where((w) => w.between('at', from, to))
      .where('id', '>', after)
      .orderBy('id')
      .limit(EVENT_PAGE)
      .execute();
    for (const r of rows) events.push(...eventsOfRow(Number(r.at), r.profile_key, r.events));
    const last = rows[rows.length - 1];
    if (!last || rows.length < EVENT_PAGE) return events;
    after = last.id;
  }
}

/** An element's value as an SQL column (text on PostgreSQL, the JSON value's own type on SQLite). */
const item = (name: (typeof ELEMENT)[number], column: string) => `e.value ->> ${ELEMENT.indexOf(name)} AS ${column}`;

/**
 * A derived table of the journey's logged events with `from <= at <= to`, one row per event: `id` and `ord` (log
 * order), `at`, `profile_key`, and the event's `type`, `stage_id`, `step_id`, `branch_id`, `variant_id`, `reason`
 * and `criterion_index`. Its rows come from the window's range of the log's (journey_id, at) index.
 */
export function loggedEvents(
  ex: Executor,
  accountId: number,
  journeyId: number,
  window: { from: number; to: number },
): RawBuilder<unknown> {
  const columns = [
    item('type', 'type'),
    item('stageId', 'stage_id'),
    item('stepId', 'step_id'),
    item('branchId', 'branch_id'),
    item('variantId', 'variant_id'),
    item('reason', 'reason'),
    item('criterionIndex', 'criterion_index'),
  ].join(', ');
  return sql`(SELECT l.id, e.key AS ord, l.at, l.profile_key, ${sql.raw(columns)}
     FROM journey_run_events l, ${sql.raw(dialectOf(ex).jsonArrayElements('l.events', 'e'))}
     WHERE l.account_id = ${accountId} AND l.journey_id = ${journeyId} AND l.at BETWEEN ${window.from} AND ${window.to})`;
}
