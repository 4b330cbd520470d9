import type { Journey } from '@svc/journey';
import { branchLabel, variantLabel } from '@svc/journey';
import { compileJourney } from './compile';
import type { Comparison } from './significance';
import { compareToControl } from './significance';
import type { EngineEvent, Instant, LeaveReason, ProfileState } from './types';
import { DAY_MS } from './types';

export interface StatisticsWindow {
  from: Instant;
  to: Instant;
}

/** The default window: the past 30 days including today (UTC), from the start of that first day to `now`. */
export function defaultWindow(now: Instant): StatisticsWindow {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return { from: today - 29 * DAY_MS, to: now };
}

export interface VariantFigures extends Comparison {
  variantId: string;
  name: string;
  control: boolean;
  percentage: number;
  profiles: number;
  goalReached: number;
  conversionRate: number;
}

export interface JourneyStatistics {
  window: StatisticsWindow;
  /** Distinct profiles, except `entries` which counts every (re-)entry. */
  entered: number;
  entries: number;
  current: number;
  goalReached: number;
  left: Record<LeaveReason, number>;
  stages: Array<{
    stageId: string;
    name: string;
    entered: number;
    current: number;
    milestoneReached: number;
    exits: Array<{ criterionIndex: number; name: string; profiles: number }>;
    /** Profiles that went from this stage to the next stage, to the goal, or left by an exit criterion. */
    flow: { toNextStage: number; toGoal: number; toExit: number };
  }>;
  steps: Array<{ stageId: string; stepId: string; type: string; entered: number; current: number }>;
  branches: Array<{ stageId: string; stepId: string; branchId: string; name: string; profiles: number }>;
  abTests: Array<{ stageId: string; stepId: string; name: string; variants: VariantFigures[] }>;
}

/**
 * What the figures of a window are made from, however they were counted: distinct profiles per figure
 * (keys made by figureKey), every entry, the A/B tallies and the "current" counts. The event log in memory
 * (journeyStatistics) and the server's aggregate queries both produce one; shapeStatistics turns it into the
 * answer, so the two ways of counting share every rule of presentation and significance.
 */
export interface StatisticsTally {
  entries: number;
  /** Distinct profiles per figure key. */
  profiles: ReadonlyMap<string, number>;
  /** Per A/B test step, per variant id: profiles assigned in the window and how many of them reached the goal. */
  variants: ReadonlyMap<string, ReadonlyMap<string, { profiles: number; goal: number }>>;
  current: number;
  currentStage: ReadonlyMap<string, number>;
  currentStep: ReadonlyMap<string, number>;
}

/** The figures a tally counts distinct profiles for, by event: see figureKey for their ids. */
export type FigureKind =
  | 'entered'
  | 'goal'
  | 'left'
  | 'stage'
  | 'next'
  | 'toGoal'
  | 'toExit'
  | 'milestone'
  | 'exit'
  | 'step'
  | 'branch';

/** The key of one figure: its kind and the id it is counted for (reason, stage, step, branch; exit: index and stage). */
export const figureKey = (kind: FigureKind, id = '', sub = '') => `${kind}\u0000${id}\u0000${sub}`;

/** One figure an event counts its profile for: kind, id and sub as figureKey takes them. */
export type FigureOf = readonly [kind: FigureKind, id: string, sub: string];

/**
 * The figures an event counts its profile for (none for most types). The one statement of which event makes
 * which figure: the in-memory statistics below and the server's day counts both count through it.
 */
export function figuresOf(
  e: Pick<EngineEvent, 'type' | 'reason' | 'stageId' | 'stepId' | 'branchId' | 'criterionIndex'>,
): FigureOf[] {
  switch (e.type) {
    case 'journey_entered':
      return [['entered', '', '']];
    case 'goal_reached':
      return [['goal', '', '']];
    case 'journey_left':
      return [['left', e.reason ?? '', '']];
    case 'stage_entered':
      return [['stage', e.stageId ?? '', '']];
    case 'stage_left':
      if (e.reason === 'milestone') return [['next', e.stageId ?? '', '']];
      if (e.reason === 'goal') return [['toGoal', e.stageId ?? '', '']];
      if (e.reason === 'exit_segment' || e.reason === 'exit_after') return [['toExit', e.stageId ?? '', '']];
      return [];
    case 'milestone_reached':
      return [['milestone', e.stageId ?? '', '']];
    case 'exit_matched':
      return [['exit', e.stageId ?? '', String(e.criterionIndex)]];
    case 'step_entered':
      return [['step', e.stepId ?? '', '']];
    case 'branch_taken':
      return [['branch', e.branchId ?? '', '']];
    default:
      return [];
  }
}

function addTo(map: Map<string, Set<string>>, key: string, profile: string) {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(profile);
}

/** Counts the "current" figures over the profile states as they are now. */
function currentTally(
  states: Iterable<ProfileState>,
): Pick<StatisticsTally, 'current' | 'currentStage' | 'currentStep'> {
  const currentStage = new Map<string, number>();
  const currentStep = new Map<string, number>();
  let current = 0;
  for (const s of states) {
    if (s.status !== 'active') continue;
    current++;
    currentStage.set(s.stageId, (currentStage.get(s.stageId) ?? 0) + 1);
    if (s.stepId !== null) currentStep.set(s.stepId, (currentStep.get(s.stepId) ?? 0) + 1);
  }
  return { current, currentStage, currentStep };
}

/**
 * Figures of one journey over a window, computed from the event log (events outside the window are
 * ignored) and, for the "current" figures, from the profile states as they are now. Profile counts are
 * distinct profiles. A/B conversions count the profiles of a variant that reached the goal at or after
 * their assignment (their first assignment in the window, in log order).
 */
export function journeyStatistics(
  journeyId: string,
  journey: Journey,
  events: Iterable<EngineEvent>,
  states: Iterable<ProfileState>,
  window: StatisticsWindow,
): JourneyStatistics {
  const by = new Map<string, Set<string>>();
  const assigned = new Map<string, Map<string, { variantId: string; at: number }>>();
  const goalAt = new Map<string, number>();
  let entries = 0;
  for (const e of events) {
    if (e.at < window.from || e.at > window.to) continue;
    const p = e.profileKey;
    for (const [kind, id, sub] of figuresOf(e)) addTo(by, figureKey(kind, id, sub), p);
    if (e.type === 'journey_entered') entries++;
    switch (e.type) {
      case 'goal_reached':
        if (!goalAt.has(p) || (goalAt.get(p) ?? 0) < e.at) goalAt.set(p, e.at);
        break;
      case 'variant_assigned': {
        let forTest = assigned.get(e.stepId ?? '');
        if (!forTest) {
          forTest = new Map();
          assigned.set(e.stepId ?? '', forTest);
        }
        if (!forTest.has(p) && e.variantId) forTest.set(p, { variantId: e.variantId, at: e.at });
        break;
      }
      default:
        break;
    }
  }
  const variants = new Map<string, Map<string, { profiles: number; goal: number }>>();
  for (const [stepId, forTest] of assigned) {
    const counts = new Map<string, { profiles: number; goal: number }>();
    variants.set(stepId, counts);
    for (const [profile, a] of forTest) {
      const c = counts.get(a.variantId) ?? { profiles: 0, goal: 0 };
      counts.set(a.variantId, c);
      c.profiles++;
      if ((goalAt.get(profile) ?? -1) >= a.at) c.goal++;
    }
  }
  const profiles = new Map([...by].map(([key, set]) => [key, set.size]));
  const tally = { entries, profiles, variants, ...currentTally(states) };
  return shapeStatistics(journeyId, journey, tally, window);
}

/** The statistics answer for a window from its tally. */
export function shapeStatistics(
  journeyId: string,
  journey: Journey,
  tally: StatisticsTally,
  window: StatisticsWindow,
): JourneyStatistics {
  const compiled = compileJourney(journeyId, journey);
  const size = (kind: FigureKind, id = '', sub = '') => tally.profiles.get(figureKey(kind, id, sub)) ?? 0;
  const { currentStage, currentStep } = tally;
  const result: JourneyStatistics = {
    window,
    entered: size('entered'),
    entries: tally.entries,
    current: tally.current,
    goalReached: size('goal'),
    left: {
      goal: size('left', 'goal'),
      exit_segment: size('left', 'exit_segment'),
      exit_after: size('left', 'exit_after'),
      milestone: size('left', 'milestone'),
      completed: size('left', 'completed'),
      version_changed: size('left', 'version_changed'),
    },
    stages: [],
    steps: [],
    branches: [],
    abTests: [],
  };

  for (const stage of compiled.stages) {
    result.stages.push({
      stageId: stage.id,
      name: stage.name,
      entered: size('stage', stage.id),
      current: currentStage.get(stage.id) ?? 0,
      milestoneReached: size('milestone', stage.id),
      exits: stage.exits.map((exit) => ({
        criterionIndex: exit.index,
        name: exit.name,
        profiles: size('exit', stage.id, String(exit.index)),
      })),
      flow: {
        toNextStage: size('next', stage.id),
        toGoal: size('toGoal', stage.id),
        toExit: size('toExit', stage.id),
      },
    });
    for (const [stepId, step] of Object.entries(stage.steps)) {
      result.steps.push({
        stageId: stage.id,
        stepId,
        type: step.type,
        entered: size('step', stepId),
        current: currentStep.get(stepId) ?? 0,
      });
      if (step.type === 'DecisionPoint') {
        step.branches.forEach((branch, i) => {
          result.branches.push({
            stageId: stage.id,
            stepId,
            branchId: branch.id,
            name: branchLabel(branch, i),
            profiles: size('branch', branch.id),
          });
        });
      }
      if (step.type === 'ABTest') {
        const shares = compiled.splits.get(stepId) ?? [];
        const tallied = tally.variants.get(stepId);
        const counts = step.variants.map((v) => tallied?.get(v.id) ?? { profiles: 0, goal: 0 });
        const control = counts[0] ?? { profiles: 0, goal: 0 };
        result.abTests.push({
          stageId: stage.id,
          stepId,
          name: step.name,
          variants: step.variants.map((variant, i) => {
            const c = counts[i] ?? { profiles: 0, goal: 0 };
            const comparison =
              i === 0
                ? { uplift: null, pValue: null, confidence: null }
                : compareToControl(c.goal, c.profiles, control.goal, control.profiles);
            return {
              variantId: variant.id,
              name: variantLabel(variant, i),
              control: i === 0,
              percentage: shares[i] ?? 0,
              profiles: c.profiles,
              goalReached: c.goal,
              conversionRate: c.profiles > 0 ? c.goal / c.profiles : 0,
              ...comparison,
            };
          }),
        });
      }
    }
  }
  return result;
}
