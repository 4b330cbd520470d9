import {
  compileJourney,
  type EngineProfile,
  type MembershipOracle,
  type ProfileState,
  type RunResult,
  runJourney,
} from '@svc/journey-engine';
import { type JourneyRow, journeyOfRow } from '../journeys';
import type { AppDeps } from '../platform/context';
import { populationFor } from './population';
import { everyoneBatches } from './runBatches';
import { pausesOf } from './runner';
import { handedOverStates } from './versions';

const OVERLAP_RULE =
  'A profile is in one stage at a time. Stages are tried from the last to the first, so a profile that matches a later stage’s entry criteria starts there. Nobody enters while in the goal segment, nor a stage whose exit segment they are in.';

/** Profiles played forward at a time: the estimate holds one batch's events, not the audience's. */
const ESTIMATE_BATCH = 50_000;

/** The distinct profiles of each figure the estimate counts, summed over batches (a profile is in one batch). */
interface Tally {
  /** Per `type` or `type stageId`: profiles with such an event. */
  profiles: Map<string, number>;
  /** Per stage: the profiles outside the journey its entry segment matches; of those, taken by a later stage or kept out. */
  stages: Map<string, { matching: number; taken: number; keptOut: number }>;
  outside: number;
  queued: number;
}

/**
 * What the next run would do, without storing anything: the engine's own run over today's segment
 * memberships, from the stored profile states (for a draft, those its launch would start from: none, or
 * for a version the ones it takes over). So the estimate of a draft equals the counts of the first run after
 * launch when the memberships have not changed. Played `batch` profiles at a time (ESTIMATE_BATCH): profiles move
 * independently, and each figure counts distinct profiles, so the batches' counts add up.
 */
export async function estimateJourney(deps: AppDeps, row: JourneyRow, batch = ESTIMATE_BATCH) {
  const now = deps.clock.now();
  const at = now.getTime();
  const journey = journeyOfRow(row);
  const population = await populationFor(deps, row.account_id, journey, now);
  const { keys } = population;
  const launched = row.state === 'launched';
  const db = deps.storage.db;
  // A launched journey's states are read a batch at a time; a draft's are those its launch would start from.
  const batches = launched
    ? everyoneBatches({ db, accountId: row.account_id, journeyId: row.id, size: batch }, keys.length, (from, to) =>
        population.profilesOf(keys.slice(from, to)),
      )
    : draftBatches(keys, population.profilesOf, await handedOverStates(deps, row, at), batch);
  const pauses = launched ? (await pausesOf(db, row)).filter((p) => p.to !== null) : [];
  const compiled = compileJourney(String(row.id), journey);
  const tally: Tally = { profiles: new Map(), stages: new Map(), outside: 0, queued: 0 };
  for await (const { profiles, states } of batches) {
    const result = runJourney({
      journeyId: String(row.id),
      journey: { ...journey, state: 'launched', paused: false },
      at,
      pauses,
      profiles,
      states,
      isMember: population.isMember,
    });
    addBatch(tally, compiled, population.isMember, profiles, states, result);
  }
  const distinct = (type: string, stageId?: string) =>
    tally.profiles.get(stageId === undefined ? type : `${type} ${stageId}`) ?? 0;
  const stages = compiled.stages.map((stage) => {
    const t = tally.stages.get(stage.id) ?? { matching: 0, taken: 0, keptOut: 0 };
    return {
      stageId: stage.id,
      name: stage.name,
      matchingEntry: t.matching,
      entering: distinct('stage_entered', stage.id),
      takenByLaterStage: t.taken,
      keptOut: t.keptOut,
      exiting: distinct('exit_matched', stage.id),
    };
  });
  return {
    data: {
      journeyId: String(row.id),
      at: now.toISOString(),
      profiles: keys.length,
      alreadyIn: keys.length - tally.outside,
      entering: distinct('journey_entered'),
      stages,
      goal: {
        reaching: distinct('goal_reached'),
        inGoalNow: compiled.goalSegment
          ? keys.filter((key) => population.isMember(compiled.goalSegment as string, key)).length
          : 0,
      },
      exiting: distinct('exit_matched'),
      queued: tally.queued,
      rule: OVERLAP_RULE,
    },
  };
}

/** The profiles of `keys` a batch at a time, each with the states a draft's launch would give them (`handed`; none: no state). */
async function* draftBatches(
  keys: ReadonlyArray<string>,
  profilesOf: (keys: string[]) => Promise<EngineProfile[]>,
  handed: ((keys: string[]) => Promise<Map<string, ProfileState>>) | null,
  batch: number,
) {
  for (let from = 0; from < keys.length; from += batch) {
    const part = keys.slice(from, from + batch);
    yield { profiles: await profilesOf(part), states: handed ? await handed(part) : new Map<string, ProfileState>() };
  }
}

/** Adds one batch's run to the tally: its distinct profiles per event type (and per stage), and the overlap rule's counts. */
function addBatch(
  tally: Tally,
  compiled: ReturnType<typeof compileJourney>,
  isMember: MembershipOracle,
  profiles: ReadonlyArray<EngineProfile>,
  states: ReadonlyMap<string, ProfileState>,
  result: RunResult,
) {
  const seen = new Map<string, Set<string>>();
  const see = (key: string, profileKey: string) => {
    const set = seen.get(key);
    if (set) set.add(profileKey);
    else seen.set(key, new Set([profileKey]));
  };
  const enteredFirst = new Map<string, string>();
  for (const e of result.events) {
    see(e.type, e.profileKey);
    if (e.stageId !== undefined) see(`${e.type} ${e.stageId}`, e.profileKey);
    if (e.type === 'journey_entered' && e.stageId && !enteredFirst.has(e.profileKey)) {
      enteredFirst.set(e.profileKey, e.stageId);
    }
  }
  for (const [key, set] of seen) tally.profiles.set(key, (tally.profiles.get(key) ?? 0) + set.size);
  const outside = profiles.filter((p) => states.get(p.key)?.status !== 'active');
  tally.outside += outside.length;
  for (const stage of compiled.stages) {
    const t = tally.stages.get(stage.id) ?? { matching: 0, taken: 0, keptOut: 0 };
    tally.stages.set(stage.id, t);
    if (!stage.entrySegment) continue;
    for (const p of outside) {
      if (!isMember(stage.entrySegment, p.key)) continue;
      t.matching++;
      const first = enteredFirst.get(p.key);
      if (first === stage.id) continue;
      if (first !== undefined && (compiled.stageById.get(first)?.index ?? -1) > stage.index) t.taken++;
      else t.keptOut++;
    }
  }
  tally.queued += new Set(result.queued.map((q) => `${q.activationId}:${q.profileKey}`)).size;
}
