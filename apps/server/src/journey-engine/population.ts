import type { Journey } from '@svc/journey';
import type { EngineProfile, Membership, MembershipOracle } from '@svc/journey-engine';
import { findParentSegment, membershipInputs, profileRows, segmentFingerprint, segmentProfileKeys } from '../audiences';
import type { AppDeps } from '../platform/context';
import { ApiError, conflict } from '../platform/errors';
import { evaluatedPopulation, type KeptRuns, keptPopulation, type RunPopulation } from './movers';

/** A population held in memory, every profile with its columns (tests and benches: movers.ts populationOfProfiles). */
export interface Population {
  profiles: EngineProfile[];
  isMember: MembershipOracle;
  /** The members of every segment the journey reads, by segment id. */
  members: ReadonlyMap<string, ReadonlySet<string>>;
}

const EVERYONE = { type: 'And' as const, conditions: [] };

/** Every segment id the journey reads, with where it is used (for messages). */
function segmentUses(journey: Journey): Map<string, string> {
  const uses = new Map<string, string>();
  const add = (id: string | null | undefined, where: string) => {
    if (id && !uses.has(id)) uses.set(id, where);
  };
  add(journey.goal?.segmentId, 'the goal');
  journey.journeyStages.forEach((stage, i) => {
    const name = `stage "${stage.name || i + 1}"`;
    add(stage.entryCriteria?.segmentId, `the entry criteria of ${name}`);
    add(stage.milestone?.segmentId, `the milestone of ${name}`);
    for (const exit of stage.exitCriterias ?? []) add(exit.segmentId, `an exit criterion of ${name}`);
    for (const step of Object.values(stage.steps ?? {})) {
      if (step.type !== 'DecisionPoint') continue;
      for (const branch of step.branches) add(branch.segmentId, `a decision point of ${name}`);
    }
  });
  return uses;
}

/** Columns A/B tests hash, other than the master key (which is the profile key itself). */
function uniqueIdColumns(journey: Journey, masterKey: string): string[] {
  const columns = new Set<string>();
  for (const stage of journey.journeyStages) {
    for (const step of Object.values(stage.steps ?? {})) {
      if (step.type === 'ABTest' && step.uniqueId && step.uniqueId !== masterKey) columns.add(step.uniqueId);
    }
  }
  return [...columns];
}

/**
 * The parent segment's profile keys and the members of every segment the journey reads, evaluated at some instant.
 * The columns A/B tests hash are read for the profiles asked (`profilesOf`), never for the whole audience at once.
 */
export interface EvaluatedPopulation {
  keys: ReadonlyArray<string>;
  /** The parent segment's keys as a set, when it is the one in hand (reused); else none was built. */
  parent?: ReadonlySet<string>;
  members: Map<string, ReadonlySet<string>>;
  isMember: MembershipOracle;
  /** The profiles of `keys`, in that order, with the columns A/B tests hash. */
  profilesOf(keys: string[]): Promise<EngineProfile[]>;
  /** Each set's fingerprint (PARENT for the parent segment's), when they were asked for; else null. */
  fingerprints: Map<string, string> | null;
  /** How many sets (the parent segment's counted) had their keys read; the others were reused. */
  membersRead: number;
}

/** The fingerprints' key of the parent segment's own set (segment ids are never empty). */
const PARENT = '';

/** Sets already in hand with their fingerprints (a run's, kept by this node): a set whose fingerprint is unchanged is reused. */
export interface Reusable {
  membership: Membership;
  fingerprints: ReadonlyMap<string, string>;
}

/**
 * The parent segment's profile keys and the members of every segment the journey reads, evaluated at `at`
 * (time filters are relative to it). A segment that no longer exists stops the run with a 409 saying
 * where the journey uses it; profiles not built yet answer the audiences feature's 409. With `reuse` (null: none
 * in hand), each set's fingerprint is read first and the keys only of the sets whose fingerprint differs from the
 * one in hand (decision 0058); without it, every set's keys are read and no fingerprint.
 */
export async function populationFor(
  deps: AppDeps,
  accountId: number,
  journey: Journey,
  at: Date,
  reuse?: Reusable | null,
): Promise<EvaluatedPopulation> {
  const parentId = journey.audienceId ?? '';
  const parent = await findParentSegment(deps, accountId, parentId);
  if (!parent) throw conflict(`The journey's parent segment ${parentId} no longer exists, so the journey cannot run.`);
  const fingerprints = reuse === undefined ? null : new Map<string, string>();
  let membersRead = 0;
  /** A set: the one in hand when its fingerprint is unchanged, else its keys read now (in key order). */
  const setOf = async (id: string, segment: string | typeof EVERYONE): Promise<ReadonlySet<string> | string[]> => {
    if (fingerprints) {
      const fingerprint = await segmentFingerprint(deps, accountId, parent.id, segment, at);
      fingerprints.set(id, fingerprint);
      const held = id === PARENT ? reuse?.membership.parent : reuse?.membership.segments.get(id);
      if (held && reuse?.fingerprints.get(id) === fingerprint) return held;
    }
    membersRead++;
    return segmentProfileKeys(deps, accountId, parent.id, segment, at);
  };
  const parentSet = await setOf(PARENT, EVERYONE);
  const keys = Array.isArray(parentSet) ? parentSet : [...parentSet];
  const members = new Map<string, ReadonlySet<string>>();
  for (const [segmentId, where] of segmentUses(journey)) {
    try {
      const found = await setOf(segmentId, segmentId);
      members.set(segmentId, Array.isArray(found) ? new Set(found) : found);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        throw conflict(
          `Segment ${segmentId}, used by ${where}, no longer exists in parent segment "${parent.name}"; the journey cannot run until it is restored.`,
        );
      }
      throw err;
    }
  }
  return {
    keys,
    ...(Array.isArray(parentSet) ? {} : { parent: parentSet }),
    members,
    isMember: (segmentId, key) => members.get(segmentId)?.has(key) ?? false,
    profilesOf: (some) => withColumns(deps, accountId, journey, parent, some),
    fingerprints,
    membersRead,
  };
}

/** The profiles of `keys` (in that order) with the values of the columns the journey's A/B tests hash. */
async function withColumns(
  deps: AppDeps,
  accountId: number,
  journey: Journey,
  parent: { id: string; key: string },
  keys: string[],
): Promise<EngineProfile[]> {
  const columns = uniqueIdColumns(journey, parent.key);
  if (columns.length === 0 || keys.length === 0) return keys.map((key) => ({ key }));
  const rows = new Map((await profileRows(deps, accountId, parent.id, keys)).map((r) => [r.key, r.attributes]));
  return keys.map((key) => ({ key, columns: rows.get(key) ?? {} }));
}

/**
 * The population a run reads (decision 0046): the memberships kept from the journey's last run in this
 * process when the parent segment's build and the rules of the segments the journey reads are those they were
 * evaluated from (and no rule reads the time or another journey), else evaluated now. The inputs are read
 * before evaluating, so a build published meanwhile makes the next run evaluate again.
 */
export async function runPopulationFor(
  deps: AppDeps,
  accountId: number,
  journeyId: number,
  journey: Journey,
  at: Date,
): Promise<RunPopulation> {
  const parentId = journey.audienceId ?? '';
  const inputs = await membershipInputs(deps, accountId, parentId, [...segmentUses(journey).keys()], at);
  const kept = keptPopulation(deps.services?.keptRuns, journeyId, journey, inputs, async (keys) => {
    const parent = await findParentSegment(deps, accountId, parentId);
    return parent ? withColumns(deps, accountId, journey, parent, keys) : keys.map((key) => ({ key }));
  });
  if (kept) return kept;
  // A run holds the keys and memberships; the columns are read for each batch it moves. Sets whose fingerprint
  // did not change since this node's last run of the journey are reused.
  const evaluated = await populationFor(deps, accountId, journey, at, reusable(deps.services?.keptRuns, journeyId));
  return evaluatedPopulation(evaluated, inputs, evaluated.profilesOf);
}

/**
 * The sets this node's last run of the journey saw, with their fingerprints (whatever the journey's definition
 * then: a set is the set of its segment, and equal fingerprints are equal sets).
 */
function reusable(kept: KeptRuns | undefined, journeyId: number): Reusable | null {
  const seen = kept?.get(journeyId);
  if (!seen?.fingerprints) return null;
  return { membership: seen.membership, fingerprints: seen.fingerprints };
}
