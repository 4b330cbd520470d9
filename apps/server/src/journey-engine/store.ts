import type { EngineEvent, LeaveReason, ProfileState, QueuedActivation } from '@svc/journey-engine';
import type { Db } from '../platform/db';

/**
 * SQL of the journey engine (migration 0010). Every statement is scoped by account and journey. A run's
 * outcome is saved profile by profile in short transactions (saveRunInChunks): each profile's state, events,
 * queue entries and assignments commit together, so a crash leaves every profile either wholly moved by
 * the run or untouched (it moves at the next run), and the control database is never locked for long.
 */

/** A row of `journey_profile_states`. */
export interface StateRow {
  profile_key: string;
  status: 'active' | 'left';
  stage_id: string;
  step_id: string | null;
  journey_entered_at: number;
  stage_entered_at: number;
  step_entered_at: number;
  entries: number;
  left_at: number | null;
  left_reason: string | null;
  variants: string;
  branches: string;
  held: number;
  last_run_at: number;
}

const map = (text: string) => (text === '{}' ? {} : (JSON.parse(text) as Record<string, string>));

function stateOf(r: StateRow): ProfileState {
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
    variants: map(r.variants),
    branches: map(r.branches),
    held: r.held === 1,
    lastRunAt: r.last_run_at,
  };
}

export function loadStates(db: Db, accountId: number, journeyId: number): Map<string, ProfileState> {
  const rows = db
    .prepare('SELECT * FROM journey_profile_states WHERE account_id = ? AND journey_id = ?')
    .all(accountId, journeyId) as StateRow[];
  return new Map(rows.map((r) => [r.profile_key, stateOf(r)]));
}

export function loadState(db: Db, accountId: number, journeyId: number, key: string): ProfileState | null {
  const row = db
    .prepare('SELECT * FROM journey_profile_states WHERE account_id = ? AND journey_id = ? AND profile_key = ?')
    .get(accountId, journeyId, key) as StateRow | undefined;
  return row ? stateOf(row) : null;
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

export function insertRun(db: Db, r: RunRecord): number {
  const result = db
    .prepare(
      `INSERT INTO journey_runs (account_id, journey_id, at, trigger, status, skipped, profiles, changed, events,
         queued, duration_ms, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      r.accountId,
      r.journeyId,
      r.at,
      r.trigger,
      r.status,
      r.skipped ?? null,
      r.profiles ?? 0,
      r.changed ?? 0,
      r.events ?? 0,
      r.queued ?? 0,
      Math.round(r.durationMs ?? 0),
      r.error ?? null,
    );
  return Number(result.lastInsertRowid);
}

export function setRunDuration(db: Db, runId: number, durationMs: number): void {
  db.prepare('UPDATE journey_runs SET duration_ms = ? WHERE id = ?').run(Math.round(durationMs), runId);
}

export interface RunOutcome {
  changed: ReadonlyMap<string, ProfileState>;
  events: ReadonlyArray<EngineEvent>;
  queued: ReadonlyArray<QueuedActivation>;
}

const b = (v: boolean | undefined) => (v === undefined ? null : v ? 1 : 0);
const n = <T>(v: T | undefined) => (v === undefined ? null : v);

const BATCH = 200;

/**
 * Inserts rows with multi-row VALUES statements of up to BATCH rows (one native call per batch instead
 * of per row, which is most of the cost of a 100,000-profile run).
 */
function insertMany(db: Db, head: string, tail: string, width: number, rows: Iterable<unknown[]>): void {
  const tuple = `(${new Array(width).fill('?').join(', ')})`;
  const sql = (count: number) => `${head} VALUES ${new Array(count).fill(tuple).join(', ')} ${tail}`;
  const full = db.prepare(sql(BATCH));
  let buffer: unknown[] = [];
  let count = 0;
  for (const row of rows) {
    for (const value of row) buffer.push(value);
    if (++count === BATCH) {
      full.run(buffer);
      buffer = [];
      count = 0;
    }
  }
  if (count > 0) db.prepare(sql(count)).run(buffer);
}

/** Profiles per transaction when a run is saved: each holds the control database's lock for a few ms. */
const CHUNK_PROFILES = 1000;

/** Groups items by profile key, keeping their order within each profile. */
function byProfile<T extends { profileKey: string }>(items: ReadonlyArray<T>): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(item.profileKey);
    if (list) list.push(item);
    else out.set(item.profileKey, [item]);
  }
  return out;
}

/**
 * Saves a run's outcome in transactions of CHUNK_PROFILES profiles each, then `finish` (the run row's
 * final record) in the last one. Every profile's rows commit together, so nothing of a profile is ever
 * half saved.
 */
export function saveRunInChunks(
  db: Db,
  accountId: number,
  journeyId: number,
  runId: number,
  out: RunOutcome,
  finish: () => void,
  /** Called between two parts with the time the last one took; the runner pauses there (see runner.ts). */
  between: (partMs: number) => void = () => undefined,
): void {
  const events = byProfile(out.events);
  const queued = byProfile(out.queued);
  const keys = [...new Set([...out.changed.keys(), ...events.keys(), ...queued.keys()])];
  const chunks = Math.max(1, Math.ceil(keys.length / CHUNK_PROFILES));
  for (let i = 0; i < chunks; i++) {
    const part = keys.slice(i * CHUNK_PROFILES, (i + 1) * CHUNK_PROFILES);
    const changed = new Map<string, ProfileState>();
    for (const key of part) {
      const state = out.changed.get(key);
      if (state) changed.set(key, state);
    }
    const slice: RunOutcome = {
      changed,
      events: part.flatMap((key) => events.get(key) ?? []),
      queued: part.flatMap((key) => queued.get(key) ?? []),
    };
    const started = performance.now();
    db.transaction(() => {
      saveRun(db, accountId, journeyId, runId, slice);
      if (i === chunks - 1) finish();
    })();
    if (i < chunks - 1) between(performance.now() - started);
  }
}

/** Sets a run's final record once its outcome is saved. */
export function finishRun(db: Db, runId: number, r: Pick<RunRecord, 'status' | 'skipped'>): void {
  db.prepare('UPDATE journey_runs SET status = ?, skipped = ?, error = NULL WHERE id = ?').run(
    r.status,
    r.skipped ?? null,
    runId,
  );
}

/** Writes what one run changed (call inside a transaction). */
export function saveRun(db: Db, accountId: number, journeyId: number, runId: number, out: RunOutcome): void {
  insertMany(
    db,
    `INSERT INTO journey_profile_states (account_id, journey_id, profile_key, status, stage_id, step_id,
       journey_entered_at, stage_entered_at, step_entered_at, entries, left_at, left_reason, variants, branches,
       held, last_run_at)`,
    `ON CONFLICT (journey_id, profile_key) DO UPDATE SET status = excluded.status,
       stage_id = excluded.stage_id, step_id = excluded.step_id, journey_entered_at = excluded.journey_entered_at,
       stage_entered_at = excluded.stage_entered_at, step_entered_at = excluded.step_entered_at,
       entries = excluded.entries, left_at = excluded.left_at, left_reason = excluded.left_reason,
       variants = excluded.variants, branches = excluded.branches, held = excluded.held,
       last_run_at = excluded.last_run_at`,
    16,
    (function* () {
      for (const s of out.changed.values()) {
        yield [
          accountId,
          journeyId,
          s.profileKey,
          s.status,
          s.stageId,
          s.stepId,
          s.journeyEnteredAt,
          s.stageEnteredAt,
          s.stepEnteredAt,
          s.entries,
          s.leftAt,
          s.leftReason,
          JSON.stringify(s.variants),
          JSON.stringify(s.branches),
          s.held ? 1 : 0,
          s.lastRunAt,
        ];
      }
    })(),
  );
  insertMany(
    db,
    `INSERT INTO journey_profile_events (account_id, journey_id, run_id, at, profile_key, type, stage_id, step_id,
       branch_id, variant_id, activation_id, segment_id, reason, criterion_index, bucket, kept, due_at)`,
    '',
    17,
    (function* () {
      for (const e of out.events) {
        yield [
          accountId,
          journeyId,
          runId,
          e.at,
          e.profileKey,
          e.type,
          n(e.stageId),
          n(e.stepId),
          n(e.branchId),
          n(e.variantId),
          n(e.activationId),
          n(e.segmentId),
          n(e.reason),
          n(e.criterionIndex),
          n(e.bucket),
          b(e.kept),
          e.dueAt !== undefined && Number.isFinite(e.dueAt) ? e.dueAt : null,
        ];
      }
    })(),
  );
  insertMany(
    db,
    'INSERT INTO journey_ab_assignments (account_id, journey_id, step_id, profile_key, variant_id, bucket, assigned_at)',
    'ON CONFLICT DO NOTHING',
    7,
    (function* () {
      for (const e of out.events) {
        if (e.type !== 'variant_assigned' || !e.stepId || !e.variantId) continue;
        yield [accountId, journeyId, e.stepId, e.profileKey, e.variantId, n(e.bucket), e.at];
      }
    })(),
  );
  insertMany(
    db,
    `INSERT INTO journey_activation_queue (account_id, journey_id, activation_id, profile_key, stage_id, step_id,
       queued_at, run_id)`,
    '',
    8,
    (function* () {
      for (const q of out.queued) {
        yield [accountId, journeyId, q.activationId, q.profileKey, q.stageId, q.stepId, q.at, runId];
      }
    })(),
  );
}

interface EventRow {
  at: number;
  profile_key: string;
  type: EngineEvent['type'];
  stage_id: string | null;
  step_id: string | null;
  branch_id: string | null;
  variant_id: string | null;
  activation_id: string | null;
  segment_id: string | null;
  reason: string | null;
  criterion_index: number | null;
  bucket: number | null;
  kept: number | null;
  due_at: number | null;
}

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

/** The journey's profile events with `from <= at <= to`, oldest first, streamed. */
export function* eventsBetween(db: Db, accountId: number, journeyId: number, from: number, to: number) {
  const rows = db
    .prepare(
      `SELECT at, profile_key, type, stage_id, step_id, branch_id, variant_id, activation_id, segment_id, reason,
         criterion_index, bucket, kept, due_at FROM journey_profile_events
       WHERE account_id = ? AND journey_id = ? AND at BETWEEN ? AND ? ORDER BY id`,
    )
    .iterate(accountId, journeyId, from, to) as IterableIterator<EventRow>;
  for (const r of rows) yield eventOf(r);
}

export interface RunRow {
  id: number;
  at: number;
  trigger: string;
  status: string;
  skipped: string | null;
  profiles: number;
  changed: number;
  events: number;
  queued: number;
  duration_ms: number;
  error: string | null;
}

export function lastRun(db: Db, accountId: number, journeyId: number): RunRow | null {
  return (
    (db
      .prepare('SELECT * FROM journey_runs WHERE account_id = ? AND journey_id = ? ORDER BY id DESC LIMIT 1')
      .get(accountId, journeyId) as RunRow | undefined) ?? null
  );
}

/** Keys of the profiles in an A/B variant (spec rule 7 segments). */
export function variantMembers(db: Db, accountId: number, journeyId: number, stepId: string, variantId: string) {
  return db
    .prepare(
      `SELECT profile_key FROM journey_ab_assignments
       WHERE account_id = ? AND journey_id = ? AND step_id = ? AND variant_id = ? ORDER BY profile_key`,
    )
    .pluck()
    .all(accountId, journeyId, stepId, variantId) as string[];
}
