import type { EngineProfile, ProfileState } from '@svc/journey-engine';
import type { Executor } from '../platform/storage';
import { hasStates, STATE_PAGE, type StateRow, stateOf, stateRowPages, stateRowsOf } from './store';

/**
 * The profiles a run moves, a batch at a time, each with the states it needs (decision 0040). A run holds one
 * batch's states, events and changed states, never the whole audience's: at 10 M profiles the states alone
 * would be several GB.
 */
export interface RunBatch {
  /**
   * The profiles to move: in the parent segment's order when the run looks at everyone, else in the order the walk
   * of the wake index met them, then the other movers (the outcome does not depend on the order).
   */
  profiles: EngineProfile[];
  /** Their states (profiles without one have never entered). */
  states: Map<string, ProfileState>;
  /** Wake time stored for each state read. */
  storedWakes: Map<string, number | null>;
  /** Whether this is the run's last batch (the run row is finished with its last part). */
  last: boolean;
}

/** What batches read of a run's population (movers.ts RunPopulation). */
export interface BatchPopulation {
  membership: { parent: ReadonlySet<string> };
  /** The profiles of `keys`, in that order, with the columns A/B tests hash. */
  profiles(keys: string[]): Promise<EngineProfile[]>;
}

export interface BatchScope {
  db: Executor;
  accountId: number;
  journeyId: number;
  /** Profiles per batch, about. */
  size: number;
}

function batchOf(profiles: EngineProfile[], rows: Iterable<StateRow>, last: boolean): RunBatch {
  const states = new Map<string, ProfileState>();
  const storedWakes = new Map<string, number | null>();
  for (const r of rows) {
    states.set(r.profile_key, stateOf(r));
    storedWakes.set(r.profile_key, r.wake_at === null ? null : Number(r.wake_at));
  }
  return { profiles, states, storedWakes, last };
}

/**
 * `count` profiles (a parent segment's), `size` at a time in its order (`slice` gives those from `from` to before
 * `to`), each batch's states read by key (none are read when the journey has no state yet, as before its first
 * run). Always at least one batch, which may be empty.
 */
export async function* everyoneBatches(
  s: BatchScope,
  count: number,
  slice: (from: number, to: number) => Promise<ReadonlyArray<EngineProfile>>,
): AsyncGenerator<RunBatch> {
  const stored = await hasStates(s.db, s.accountId, s.journeyId);
  for (let i = 0; ; i += s.size) {
    const profiles = [...(await slice(i, Math.min(count, i + s.size)))];
    const keys = profiles.map((p) => p.key);
    const rows = stored && keys.length > 0 ? await stateRowsOf(s.db, s.accountId, s.journeyId, keys) : [];
    const last = i + s.size >= count;
    yield batchOf(profiles, rows, last);
    if (last) return;
  }
}

/**
 * The profiles whose wake time has come by `at` (a walk of the wake index, its rows read whole), then `movers`
 * (those whose memberships changed) not among them, their states read by key. Each page of the walk is read once
 * the batch before it is saved, so a state saved meanwhile may show up again further on in the walk when its new
 * wake time is still at or before `at`: such profiles are in `settled` (move.ts adds them) and are not moved twice.
 */
export async function* moverBatches(
  s: BatchScope,
  population: BatchPopulation,
  movers: ReadonlySet<string>,
  at: number,
  settled: ReadonlySet<string>,
): AsyncGenerator<RunBatch> {
  const parent = population.membership.parent;
  const rest = new Set(movers);
  /** The next batch's profiles, each with its state row when the walk read it (null: to read by key). */
  const pending = new Map<string, StateRow | null>();
  const form = async (last: boolean) => {
    // Movers no longer in the parent segment are not moved (their states stay as they are).
    const keys = [...pending.keys()].filter((key) => parent.has(key));
    const rows: StateRow[] = [];
    const byKey: string[] = [];
    for (const [key, row] of pending) {
      if (row) rows.push(row);
      else byKey.push(key);
    }
    pending.clear();
    for (const r of await stateRowsOf(s.db, s.accountId, s.journeyId, byKey)) rows.push(r);
    return batchOf(keys.length === 0 ? [] : await population.profiles(keys), rows, last);
  };
  // Pages no larger than a batch, so small batches (tests) walk many pages with saves between them.
  const pages = stateRowPages(s.db, s.accountId, s.journeyId, at, Math.min(STATE_PAGE, s.size));
  let page = await pages.next();
  while (!page.done) {
    for (const r of page.value) {
      if (!parent.has(r.profile_key) || settled.has(r.profile_key)) continue;
      rest.delete(r.profile_key);
      pending.set(r.profile_key, r);
    }
    // The next page is read before the batch is saved: whether this batch is the last needs it.
    page = await pages.next();
    if (pending.size >= s.size) {
      const last = page.done === true && rest.size === 0;
      yield await form(last);
      if (last) return;
    }
  }
  const left = [...rest];
  for (let i = 0; i < left.length; i++) {
    pending.set(left[i] as string, null);
    if (pending.size >= s.size && i < left.length - 1) yield await form(false);
  }
  yield await form(true);
}
