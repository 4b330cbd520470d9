import { compileJourney, type ProfileState, runJourney } from '@svc/journey-engine';
import { type JourneyRow, journeyOfRow } from '../journeys';
import type { AppDeps } from '../platform/context';
import { populationFor } from './population';
import { pausesOf } from './runner';
import { loadStates } from './store';
import { handedOverStates } from './versions';

const OVERLAP_RULE =
  'A profile is in one stage at a time. Stages are tried from the last to the first, so a profile that matches a later stage’s entry criteria starts there. Nobody enters while in the goal segment, nor a stage whose exit segment they are in.';

/**
 * What the next run would do, without storing anything: the engine's own run over today's segment
 * memberships, from the stored profile states (for a draft, those its launch would start from: none, or
 * for a version the ones it takes over). So the estimate of a draft equals the counts of the first run after
 * launch when the memberships have not changed.
 */
export async function estimateJourney(deps: AppDeps, row: JourneyRow) {
  const now = deps.clock.now();
  const at = now.getTime();
  const journey = journeyOfRow(row);
  const population = await populationFor(deps, row.account_id, journey, now);
  const launched = row.state === 'launched';
  const db = deps.storage.db;
  const states: Map<string, ProfileState> = launched
    ? await loadStates(db, row.account_id, row.id)
    : await handedOverStates(deps, row, at);
  const result = runJourney({
    journeyId: String(row.id),
    journey: { ...journey, state: 'launched', paused: false },
    at,
    pauses: launched ? (await pausesOf(db, row)).filter((p) => p.to !== null) : [],
    profiles: population.profiles,
    states,
    isMember: population.isMember,
  });
  const compiled = compileJourney(String(row.id), journey);
  const distinct = (type: string, stageId?: string) =>
    new Set(
      result.events
        .filter((e) => e.type === type && (stageId === undefined || e.stageId === stageId))
        .map((e) => e.profileKey),
    ).size;
  const outside = population.profiles.filter((p) => states.get(p.key)?.status !== 'active');
  const enteredFirst = new Map<string, string>();
  for (const e of result.events) {
    if (e.type === 'journey_entered' && e.stageId && !enteredFirst.has(e.profileKey)) {
      enteredFirst.set(e.profileKey, e.stageId);
    }
  }
  const stages = compiled.stages.map((stage) => {
    const matching = stage.entrySegment
      ? outside.filter((p) => population.isMember(stage.entrySegment as string, p.key))
      : [];
    let takenByLaterStage = 0;
    let keptOut = 0;
    for (const p of matching) {
      const first = enteredFirst.get(p.key);
      if (first === stage.id) continue;
      if (first !== undefined && (compiled.stageById.get(first)?.index ?? -1) > stage.index) takenByLaterStage++;
      else keptOut++;
    }
    return {
      stageId: stage.id,
      name: stage.name,
      matchingEntry: matching.length,
      entering: distinct('stage_entered', stage.id),
      takenByLaterStage,
      keptOut,
      exiting: distinct('exit_matched', stage.id),
    };
  });
  return {
    data: {
      journeyId: String(row.id),
      at: now.toISOString(),
      profiles: population.profiles.length,
      alreadyIn: population.profiles.length - outside.length,
      entering: distinct('journey_entered'),
      stages,
      goal: {
        reaching: distinct('goal_reached'),
        inGoalNow: compiled.goalSegment
          ? population.profiles.filter((p) => population.isMember(compiled.goalSegment as string, p.key)).length
          : 0,
      },
      exiting: distinct('exit_matched'),
      queued: new Set(result.queued.map((q) => `${q.activationId}:${q.profileKey}`)).size,
      rule: OVERLAP_RULE,
    },
  };
}
