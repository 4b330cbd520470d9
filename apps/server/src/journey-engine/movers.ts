import type { Journey } from '@svc/journey';
import {
  compileJourney,
  definitionKey,
  type EngineProfile,
  type Membership,
  type MembershipOracle,
  membershipMovers,
  normalizePauses,
  type PauseInterval,
  type ProfileState,
  type RunResult,
  wakesAfterRun,
} from '@svc/journey-engine';
import type { Executor } from '../platform/storage';
import { everyoneBatches, moverBatches, type RunBatch } from './runBatches';

/**
 * Which profiles a run loads and moves (decision 0040; the rule is the engine package's movers.ts). The
 * memberships a run saw are kept in memory, per node (`deps.services.keptRuns`) and journey, with the id of that
 * run (a run without services keeps nothing). The next run
 * of the journey in this process compares today's memberships with them and adds the profiles whose wake
 * time has come (an index of `journey_profile_states`): only those are read from the database and moved.
 * When the memberships kept are not those of the journey's last run (none kept yet, the process restarted,
 * another node ran it, a run failed or was interrupted) or the journey's definition changed, the run loads
 * every state, as before, and writes every wake time that changed.
 */

interface Seen {
  runId: number;
  definition: string;
  membership: Membership;
  /** What the memberships were evaluated from (audiences' membershipInputs); null when that was not known. */
  inputs: string | null;
  /** Each set's fingerprint (population.ts, the parent's under PARENT); null when they were not read. */
  fingerprints: ReadonlyMap<string, string> | null;
}

/** The memberships the last run of each journey on this node saw, by journey id (`deps.services.keptRuns`). */
export type KeptRuns = Map<number, Seen>;

declare module '../platform/context' {
  interface Services {
    /** Memberships seen by this node's last run of each journey (journey-engine/movers.ts). */
    keptRuns: KeptRuns;
  }
}

/** The id of the journey's last run that was not skipped (a skipped run moves nobody). */
async function lastMovingRun(ex: Executor, accountId: number, journeyId: number): Promise<number | null> {
  const row = await ex
    .selectFrom('journey_runs')
    .select('id')
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .where('status', '<>', 'skipped')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? row.id : null;
}

/**
 * The parent segment's profiles and memberships a run reads: evaluated for this run, or those kept from the
 * journey's last run when what they are evaluated from has not changed since (decision 0046). A run holds the
 * keys and memberships; the columns A/B tests hash are read for the profiles of each batch it moves.
 */
export interface RunPopulation {
  /** Profiles in the parent segment. */
  size: number;
  membership: Membership;
  isMember: MembershipOracle;
  /** The parent segment's keys, in its order. */
  keys(): string[];
  /** The profiles of `keys`, in that order, with the columns A/B tests hash. */
  profiles(keys: string[]): Promise<EngineProfile[]>;
  /** What the memberships were evaluated from (audiences' membershipInputs); null when not known. */
  inputs: string | null;
  /** Whether the memberships are the ones kept from an earlier run (nothing was evaluated). */
  kept: boolean;
  /** The sets' fingerprints, kept for the next run; null when not known. */
  fingerprints: ReadonlyMap<string, string> | null;
  /** How many sets (the parent segment's counted) had their keys read for this run; the others were reused. */
  membersRead: number;
}

/** Reads the profiles of some keys with the columns A/B tests hash (population.ts). */
export type ColumnsOf = (keys: string[]) => Promise<EngineProfile[]>;

/** `columns` of `keys`, in their order; a key it has no row for is a profile without columns. */
const profilesOf = (columns: ColumnsOf) => async (keys: string[]) => {
  if (keys.length === 0) return [];
  const found = new Map((await columns(keys)).map((p) => [p.key, p]));
  return keys.map((key) => found.get(key) ?? { key });
};

/**
 * A population evaluated for this run; `inputs` as membershipInputs said before the evaluation. `parent`, when
 * given, is the set of `keys` (a set reused from the last run: it is not built again).
 */
export function evaluatedPopulation(
  population: {
    keys: ReadonlyArray<string>;
    parent?: ReadonlySet<string>;
    members: Membership['segments'];
    isMember: MembershipOracle;
    fingerprints?: ReadonlyMap<string, string> | null;
    membersRead?: number;
  },
  inputs: string | null,
  columns: ColumnsOf,
): RunPopulation {
  const all = population.keys;
  return {
    size: all.length,
    membership: { parent: population.parent ?? new Set(all), segments: population.members },
    isMember: population.isMember,
    keys: () => [...all],
    profiles: profilesOf(columns),
    inputs,
    kept: false,
    fingerprints: population.fingerprints ?? null,
    membersRead: population.membersRead ?? 1 + population.members.size,
  };
}

/** A population evaluated in memory, its profiles with their columns (tests, benches). */
export function populationOfProfiles(
  population: { profiles: ReadonlyArray<EngineProfile>; members: Membership['segments']; isMember: MembershipOracle },
  inputs: string | null,
): RunPopulation {
  const byKey = new Map(population.profiles.map((p) => [p.key, p]));
  const columns: ColumnsOf = async (keys) => keys.flatMap((key) => byKey.get(key) ?? []);
  return evaluatedPopulation({ ...population, keys: [...byKey.keys()] }, inputs, columns);
}

/**
 * The memberships kept from the journey's last run in this process, when the definition is the same and
 * they were evaluated from the same inputs (`inputs`, not null): evaluating them again would give the same
 * sets, so nothing is evaluated. `columns` reads the profiles of the given keys with the columns A/B tests
 * hash (only for the profiles the run moves). Null otherwise: the run evaluates them.
 */
export function keptPopulation(
  kept: KeptRuns | undefined,
  journeyId: number,
  journey: Journey,
  inputs: string | null,
  columns: ColumnsOf,
): RunPopulation | null {
  const seen = kept?.get(journeyId);
  if (!seen || inputs === null || seen.inputs !== inputs || seen.definition !== definitionKey(journey)) return null;
  const { membership } = seen;
  return {
    size: membership.parent.size,
    membership,
    isMember: (segmentId, key) => membership.segments.get(segmentId)?.has(key) ?? false,
    keys: () => [...membership.parent],
    profiles: profilesOf(columns),
    inputs,
    kept: true,
    fingerprints: seen.fingerprints,
    membersRead: 0,
  };
}

export interface RunPlan {
  membership: Membership;
  definition: string;
  inputs: string | null;
  fingerprints: ReadonlyMap<string, string> | null;
  /**
   * The profiles to move, about `size` at a time, with their states (runBatches.ts); `settled` holds the profiles
   * already moved whose new wake time is still due, which the walk of the wake index must not take again.
   */
  batches(size: number, settled: ReadonlySet<string>): AsyncGenerator<RunBatch>;
}

/**
 * Decides whom the run at `at` moves. When the memberships come from the same inputs as the last run's, none
 * changed: only the profiles whose wake time has come are read (a range of the wake index), and the cost of a
 * run where nobody moves does not grow with the audience. States are read batch by batch as the run goes.
 */
export async function planRun(
  db: Executor,
  kept: KeptRuns | undefined,
  accountId: number,
  journeyId: number,
  journey: Journey,
  population: RunPopulation,
  at: number,
): Promise<RunPlan> {
  const { membership, inputs, fingerprints } = population;
  const definition = definitionKey(journey);
  const seen = kept?.get(journeyId);
  const usable =
    seen !== undefined &&
    seen.definition === definition &&
    seen.runId === (await lastMovingRun(db, accountId, journeyId));
  const scope = (size: number) => ({ db, accountId, journeyId, size });
  if (!usable) {
    const all = population.keys();
    return {
      membership,
      definition,
      inputs,
      fingerprints,
      batches: (size) =>
        everyoneBatches(scope(size), all.length, (from, to) => population.profiles(all.slice(from, to))),
    };
  }
  const same = inputs !== null && inputs === seen.inputs;
  const movers = same ? new Set<string>() : membershipMovers(seen.membership, membership);
  return {
    membership,
    definition,
    inputs,
    fingerprints,
    batches: (size, settled) => moverBatches(scope(size), population, movers, at, settled),
  };
}

/**
 * What the run writes to the states table for a batch: the states it changed, and the states it looked at whose
 * wake time is not the one stored (a pause moved it, or it was never computed), each with its wake time.
 */
export function statesToWrite(
  batch: RunBatch,
  journey: Journey,
  journeyId: number,
  pauses: ReadonlyArray<PauseInterval>,
  at: number,
  result: RunResult,
): { changed: Map<string, ProfileState>; wakes: Map<string, number | null> } {
  // A skipped run looked at nobody: what is stored stays.
  if (result.skipped) return { changed: result.changed, wakes: new Map() };
  const compiled = compileJourney(String(journeyId), journey);
  const looked = batch.profiles.flatMap((p) => batch.states.get(p.key) ?? []);
  const wakes = wakesAfterRun(compiled, normalizePauses(pauses), at, looked, result.changed);
  const changed = new Map(result.changed);
  for (const [key, wake] of wakes) {
    if (changed.has(key) || batch.storedWakes.get(key) === wake) continue;
    const state = batch.states.get(key);
    if (state) changed.set(key, state);
  }
  return { changed, wakes };
}

/** Keeps the memberships the run saw, for the journey's next run in this process. */
export function rememberRun(kept: KeptRuns | undefined, journeyId: number, runId: number, plan: RunPlan): void {
  kept?.set(journeyId, {
    runId,
    definition: plan.definition,
    membership: plan.membership,
    inputs: plan.inputs,
    fingerprints: plan.fingerprints,
  });
}
