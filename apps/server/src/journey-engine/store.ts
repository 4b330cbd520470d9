import type { EngineEvent, LeaveReason, ProfileState, QueuedActivation } from '@svc/journey-engine';
import { z } from 'zod';
import { holdJourneyRow } from '../journeys';
import {
  appendRows,
  type ColumnKind,
  type Executor,
  insertRowsInBatches,
  type Row,
  transaction,
} from '../platform/storage';
import { parseStored } from '../platform/storedJson';
import { abCounts, addAbCounts } from './abCounts';
import { eventsByEntry } from './entries';
import { RUN_EVENT_COLUMNS, RUN_EVENT_KINDS, runEventRows } from './eventLog';
import { addFigureCounts, figureCounts } from './figureCounts';
import { leavePositions, movePositions } from './positions';
import { n, STATE_COLUMNS, STATE_KINDS, stateRows } from './savedRows';

/**
 * SQL of the journey engine (migration 0010). Every statement is scoped by account and journey. A run's
 * outcome is saved profile by profile in short transactions (saveRunInChunks): each profile's state, events,
 * queue entries and assignments commit together, so a crash leaves every profile either wholly moved by
 * the run or untouched (it moves at the next run), and the control database is never locked for long.
 */

/** Narrows a profile state's `status` (`$narrowType`; nothing is checked at run time). */
type Statused = { status: 'active' | 'left' };

/** A row of `journey_profile_states` without its account and journey, its status narrowed. */
export type StateRow = Omit<Row<'journey_profile_states'>, 'account_id' | 'journey_id' | 'status'> & Statused;

const choices = z.record(z.string(), z.string());

/** A profile's choices as stored: `variants` (variant by A/B test step) or `branches` (branch by decision point). */
export const readChoices = (text: string, column: 'variants' | 'branches'): Record<string, string> =>
  text === '{}' ? {} : parseStored(choices, text, `journey_profile_states.${column}`);

export function stateOf(r: StateRow): ProfileState {
  return {
    profileKey: r.profile_key,
    status: r.status,
    stageId: r.stage_id,
    stepId: r.step_id,
    journeyEnteredAt: r.journey_entered_at,
    stageEnteredAt: r.stage_entered_at,
    stepEnteredAt: r.step_entered_at,
    entries: r.entries,
    leftAt: r.left_at,
    leftReason: r.left_reason as LeaveReason | null,
    variants: readChoices(r.variants, 'variants'),
    branches: readChoices(r.branches, 'branches'),
    held: r.held === 1,
    lastRunAt: r.last_run_at,
  };
}

/** Rows per statement when states are read in pages: a page's rows die young, a 1 M-row array does not. */
export const STATE_PAGE = 10_000;

/**
 * The journey's state rows page by page in key order, or with `dueBy` only those whose wake time is at or before
 * it, in wake order through the wake index. Each page is read when the one before it has been taken, so a reader
 * may write between pages (a run saves its batches between them: decision 0040). Reading a million rows as one
 * array took about twice as long (its rows outlive the garbage collector's young generation).
 */
export async function* stateRowPages(
  ex: Executor,
  accountId: number,
  journeyId: number,
  dueBy?: number,
  page = STATE_PAGE,
): AsyncGenerator<StateRow[]> {
  let last: StateRow | undefined;
  for (;;) {
    let q = ex
      .selectFrom('journey_profile_states')
      .selectAll()
      .where('journey_id', '=', journeyId)
      .where('account_id', '=', accountId);
    if (dueBy === undefined) {
      if (last) q = q.where('profile_key', '>', last.profile_key);
      q = q.orderBy('profile_key');
    } else {
      q = q.where('wake_at', '<=', dueBy);
      const after = last;
      if (after)
        q = q.where((w) => w(w.refTuple('wake_at', 'profile_key'), '>', w.tuple(after.wake_at, after.profile_key)));
      q = q.orderBy('wake_at').orderBy('profile_key');
    }
    const rows = await q.limit(page).$narrowType<Statused>().execute();
    if (rows.length > 0) yield rows;
    last = rows[rows.length - 1];
    if (!last || rows.length < page) return;
  }
}

/** Visits the rows stateRowPages reads, one at a time. */
export async function eachStateRow(
  ex: Executor,
  accountId: number,
  journeyId: number,
  visit: (row: StateRow) => void,
  dueBy?: number,
  page = STATE_PAGE,
): Promise<void> {
  for await (const rows of stateRowPages(ex, accountId, journeyId, dueBy, page)) for (const r of rows) visit(r);
}

/** Whether any profile has a state in the journey (none before its first run). */
export async function hasStates(ex: Executor, accountId: number, journeyId: number): Promise<boolean> {
  const row = await ex
    .selectFrom('journey_profile_states')
    .select('profile_key')
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Keys per `IN (…)` list: well within both backends' limits of bound values. */
const KEYS_PER_QUERY = 500;

/** Rows of `journey_profile_states` of the given profiles (those that have one). */
export async function stateRowsOf(ex: Executor, accountId: number, journeyId: number, keys: ReadonlyArray<string>) {
  const rows: StateRow[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
    const part = keys.slice(i, i + KEYS_PER_QUERY);
    const found = await ex
      .selectFrom('journey_profile_states')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('journey_id', '=', journeyId)
      .where('profile_key', 'in', part)
      .$narrowType<Statused>()
      .execute();
    for (const r of found) rows.push(r);
  }
  return rows;
}

export async function loadStates(ex: Executor, accountId: number, journeyId: number) {
  const states = new Map<string, ProfileState>();
  await eachStateRow(ex, accountId, journeyId, (r) => states.set(r.profile_key, stateOf(r)));
  return states;
}

export interface RunRecord {
  accountId: number;
  journeyId: number;
  at: number;
  trigger: 'schedule' | 'request';
  status: 'success' | 'skipped' | 'error';
  skipped?: string | null;
  profiles?: number;
  changed?: number;
  events?: number;
  queued?: number;
  durationMs?: number;
  error?: string | null;
}

export async function insertRun(ex: Executor, r: RunRecord): Promise<number> {
  const { id } = await ex
    .insertInto('journey_runs')
    .values({
      account_id: r.accountId,
      journey_id: r.journeyId,
      at: r.at,
      trigger: r.trigger,
      status: r.status,
      skipped: r.skipped ?? null,
      profiles: r.profiles ?? 0,
      changed: r.changed ?? 0,
      events: r.events ?? 0,
      queued: r.queued ?? 0,
      duration_ms: Math.round(r.durationMs ?? 0),
      error: r.error ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function setRunDuration(ex: Executor, accountId: number, runId: number, durationMs: number) {
  await ex
    .updateTable('journey_runs')
    .set({ duration_ms: Math.round(durationMs) })
    .where('account_id', '=', accountId)
    .where('id', '=', runId)
    .execute();
}

export interface RunOutcome {
  changed: ReadonlyMap<string, ProfileState>;
  events: ReadonlyArray<EngineEvent>;
  queued: ReadonlyArray<QueuedActivation>;
  /** Wake time of each state written (decision 0040); a state without one is written with none. */
  wakes?: ReadonlyMap<string, number | null>;
  /**
   * The stored states of the profiles it changes, as the run read them (a key without one has none stored): their
   * positions leave the counts without being read again. Omitted: they are read from the table.
   */
  before?: ReadonlyMap<string, ProfileState>;
}

const INT: ColumnKind = 'integer';
const TEXT: ColumnKind = 'text';

/** Profiles per transaction when a run is saved: each holds the control database's lock for a few ms. */
const CHUNK_PROFILES = 1000;

/** A run's outcome cut into parts of CHUNK_PROFILES profiles, each profile wholly in one part. */
function partsOf(out: RunOutcome): RunOutcome[] {
  const partOf = new Map<string, number>();
  const parts: { changed: Map<string, ProfileState>; events: EngineEvent[]; queued: QueuedActivation[] }[] = [];
  const part = (key: string) => {
    let i = partOf.get(key);
    if (i === undefined) {
      i = Math.floor(partOf.size / CHUNK_PROFILES);
      partOf.set(key, i);
      if (i === parts.length) parts.push({ changed: new Map(), events: [], queued: [] });
    }
    return parts[i] as (typeof parts)[number];
  };
  for (const [key, state] of out.changed) part(key).changed.set(key, state);
  // Each part keeps the run's order of events, so a profile's events stay in the order they happened.
  for (const e of out.events) part(e.profileKey).events.push(e);
  for (const q of out.queued) part(q.profileKey).queued.push(q);
  if (parts.length === 0) parts.push({ changed: new Map(), events: [], queued: [] });
  return parts.map((p) => ({ ...p, wakes: out.wakes, before: out.before }));
}

/**
 * Saves a run's outcome in transactions of CHUNK_PROFILES profiles each, then `finish` (the run row's
 * final record) in the last one. Every profile's rows commit together, so nothing of a profile is ever
 * half saved.
 */
export async function saveRunInChunks(
  ex: Executor,
  accountId: number,
  journeyId: number,
  runId: number,
  out: RunOutcome,
  /** The run row's final record, written in the last part's transaction; null when more parts follow. */
  finish: ((tx: Executor) => Promise<void>) | null,
  /** Called between two parts with the time the last one took; the runner pauses there (see runner.ts). */
  between: (partMs: number) => Promise<void> = async () => undefined,
): Promise<void> {
  const parts = partsOf(out);
  const chunks = parts.length;
  for (let i = 0; i < chunks; i++) {
    const slice = parts[i] as RunOutcome;
    const started = performance.now();
    const final = finish !== null && i === chunks - 1;
    await transaction(ex, async (tx) => {
      await saveRun(tx, accountId, journeyId, runId, slice);
      if (final) await finish(tx);
    });
    if (!final) await between(performance.now() - started);
  }
}

/** Sets a run's final record once its outcome is saved: its status and what it moved. */
export async function finishRun(
  ex: Executor,
  accountId: number,
  runId: number,
  r: Pick<RunRecord, 'status' | 'skipped' | 'changed' | 'events' | 'queued'>,
): Promise<void> {
  await ex
    .updateTable('journey_runs')
    .set({
      status: r.status,
      skipped: r.skipped ?? null,
      error: null,
      ...(r.changed === undefined ? {} : { changed: r.changed, events: r.events ?? 0, queued: r.queued ?? 0 }),
    })
    .where('account_id', '=', accountId)
    .where('id', '=', runId)
    .execute();
}

/** Writes what one run changed (call inside a transaction). */
export async function saveRun(ex: Executor, accountId: number, journeyId: number, runId: number, out: RunOutcome) {
  // Held until the part commits: a journey deleted meanwhile (its rows go with it, migration 49) gets none.
  if (!(await holdJourneyRow(ex, accountId, journeyId))) {
    throw new Error('The journey was deleted while this run was being saved; nothing more of it is saved.');
  }
  if (!out.before) await leavePositions(ex, accountId, journeyId, [...out.changed.keys()]);
  // New states are appended (COPY on PostgreSQL) when the run says which ones were stored; those are updated.
  const stored = out.before;
  const fresh = stored ? [...out.changed.values()].filter((st) => !stored.has(st.profileKey)) : [];
  const known = stored ? [...out.changed.values()].filter((st) => stored.has(st.profileKey)) : out.changed.values();
  await appendRows(
    ex,
    'journey_profile_states',
    STATE_COLUMNS,
    STATE_KINDS,
    stateRows(accountId, journeyId, fresh, out.wakes),
  );
  await insertRowsInBatches(
    ex,
    `INSERT INTO journey_profile_states (${STATE_COLUMNS.join(', ')})`,
    STATE_KINDS,
    stateRows(accountId, journeyId, known, out.wakes),
    `ON CONFLICT (journey_id, profile_key) DO UPDATE SET status = excluded.status,
       stage_id = excluded.stage_id, step_id = excluded.step_id, journey_entered_at = excluded.journey_entered_at,
       stage_entered_at = excluded.stage_entered_at, step_entered_at = excluded.step_entered_at,
       entries = excluded.entries, left_at = excluded.left_at, left_reason = excluded.left_reason,
       variants = excluded.variants, branches = excluded.branches, held = excluded.held,
       last_run_at = excluded.last_run_at, wake_at = excluded.wake_at`,
  );
  await movePositions(ex, accountId, journeyId, out.changed, out.before);
  await appendRows(
    ex,
    'journey_run_events',
    RUN_EVENT_COLUMNS,
    RUN_EVENT_KINDS,
    runEventRows(accountId, journeyId, runId, out.events),
  );
  const byEntry = eventsByEntry(out.events, out.changed, false);
  await addFigureCounts(ex, accountId, journeyId, figureCounts(byEntry, false));
  await addAbCounts(ex, accountId, journeyId, await abCounts(ex, accountId, journeyId, byEntry, out.changed, false));
  await insertRowsInBatches(
    ex,
    'INSERT INTO journey_ab_assignments (account_id, journey_id, step_id, profile_key, variant_id, bucket, assigned_at)',
    [INT, INT, TEXT, TEXT, TEXT, INT, INT],
    (function* () {
      for (const e of out.events) {
        if (e.type !== 'variant_assigned' || !e.stepId || !e.variantId) continue;
        yield [accountId, journeyId, e.stepId, e.profileKey, e.variantId, n(e.bucket), e.at];
      }
    })(),
    'ON CONFLICT DO NOTHING',
  );
  await insertRowsInBatches(
    ex,
    `INSERT INTO journey_activation_queue (account_id, journey_id, activation_id, profile_key, stage_id, step_id,
       queued_at, run_id)`,
    [INT, INT, TEXT, TEXT, TEXT, TEXT, INT, INT],
    (function* () {
      for (const q of out.queued) {
        yield [accountId, journeyId, q.activationId, q.profileKey, q.stageId, q.stepId, q.at, runId];
      }
    })(),
    '',
  );
}

/** A row of `journey_runs` without its account and journey. */
export type RunRow = Omit<Row<'journey_runs'>, 'account_id' | 'journey_id'>;

export async function lastRun(ex: Executor, accountId: number, journeyId: number): Promise<RunRow | null> {
  const row = await ex
    .selectFrom('journey_runs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** Keys of the profiles in an A/B variant (spec rule 7 segments). */
export async function variantMembers(
  ex: Executor,
  accountId: number,
  journeyId: number,
  stepId: string,
  variantId: string,
): Promise<string[]> {
  const rows = await ex
    .selectFrom('journey_ab_assignments')
    .select('profile_key')
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .where('step_id', '=', stepId)
    .where('variant_id', '=', variantId)
    .orderBy('profile_key')
    .execute();
  return rows.map((r) => r.profile_key);
}
