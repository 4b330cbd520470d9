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

const key2 = (a: string, b: string) => `${a}\u0000${b}`;

function addTo(map: Map<string, Set<string>>, key: string, profile: string) {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(profile);
}

const size = (map: Map<string, Set<string>>, key: string) => map.get(key)?.size ?? 0;

/**
 * Figures of one journey over a window, computed from the event log (events outside the window are
 * ignored) and, for the "current" figures, from the profile states as they are now. Profile counts are
 * distinct profiles. A/B conversions count the profiles of a variant that reached the goal at or after
 * their assignment.
 */
export function journeyStatistics(
  journeyId: string,
  journey: Journey,
  events: Iterable<EngineEvent>,
  states: Iterable<ProfileState>,
  window: StatisticsWindow,
): JourneyStatistics {
  const compiled = compileJourney(journeyId, journey);
  const by = new Map<string, Set<string>>();
  const assigned = new Map<string, Map<string, { variantId: string; at: number }>>();
  const goalAt = new Map<string, number>();
  let entries = 0;
  for (const e of events) {
    if (e.at < window.from || e.at > window.to) continue;
    const p = e.profileKey;
    switch (e.type) {
      case 'journey_entered':
        entries++;
        addTo(by, 'entered', p);
        break;
      case 'goal_reached':
        addTo(by, 'goal', p);
        if (!goalAt.has(p) || (goalAt.get(p) ?? 0) < e.at) goalAt.set(p, e.at);
        break;
      case 'journey_left':
        addTo(by, `left:${e.reason}`, p);
        break;
      case 'stage_entered':
        addTo(by, key2('stage', e.stageId ?? ''), p);
        break;
      case 'stage_left':
        if (e.reason === 'milestone') addTo(by, key2('next', e.stageId ?? ''), p);
        if (e.reason === 'goal') addTo(by, key2('toGoal', e.stageId ?? ''), p);
        if (e.reason === 'exit_segment' || e.reason === 'exit_after') addTo(by, key2('toExit', e.stageId ?? ''), p);
        break;
      case 'milestone_reached':
        addTo(by, key2('milestone', e.stageId ?? ''), p);
        break;
      case 'exit_matched':
        addTo(by, key2(`exit:${e.criterionIndex}`, e.stageId ?? ''), p);
        break;
      case 'step_entered':
        addTo(by, key2('step', e.stepId ?? ''), p);
        break;
      case 'branch_taken':
        addTo(by, key2('branch', e.branchId ?? ''), p);
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

  const currentStage = new Map<string, number>();
  const currentStep = new Map<string, number>();
  let current = 0;
  for (const s of states) {
    if (s.status !== 'active') continue;
    current++;
    currentStage.set(s.stageId, (currentStage.get(s.stageId) ?? 0) + 1);
    if (s.stepId !== null) currentStep.set(s.stepId, (currentStep.get(s.stepId) ?? 0) + 1);
  }

  const result: JourneyStatistics = {
    window,
    entered: size(by, 'entered'),
    entries,
    current,
    goalReached: size(by, 'goal'),
    left: {
      goal: size(by, 'left:goal'),
      exit_segment: size(by, 'left:exit_segment'),
      exit_after: size(by, 'left:exit_after'),
      milestone: size(by, 'left:milestone'),
      completed: size(by, 'left:completed'),
      version_changed: size(by, 'left:version_changed'),
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
      entered: size(by, key2('stage', stage.id)),
      current: currentStage.get(stage.id) ?? 0,
      milestoneReached: size(by, key2('milestone', stage.id)),
      exits: stage.exits.map((exit) => ({
        criterionIndex: exit.index,
        name: exit.name,
        profiles: size(by, key2(`exit:${exit.index}`, stage.id)),
      })),
      flow: {
        toNextStage: size(by, key2('next', stage.id)),
        toGoal: size(by, key2('toGoal', stage.id)),
        toExit: size(by, key2('toExit', stage.id)),
      },
    });
    for (const [stepId, step] of Object.entries(stage.steps)) {
      result.steps.push({
        stageId: stage.id,
        stepId,
        type: step.type,
        entered: size(by, key2('step', stepId)),
        current: currentStep.get(stepId) ?? 0,
      });
      if (step.type === 'DecisionPoint') {
        step.branches.forEach((branch, i) => {
          result.branches.push({
            stageId: stage.id,
            stepId,
            branchId: branch.id,
            name: branchLabel(branch, i),
            profiles: size(by, key2('branch', branch.id)),
          });
        });
      }
      if (step.type === 'ABTest') {
        const shares = compiled.splits.get(stepId) ?? [];
        const counts = step.variants.map(() => ({ profiles: 0, goal: 0 }));
        for (const [profile, a] of assigned.get(stepId) ?? []) {
          const index = step.variants.findIndex((v) => v.id === a.variantId);
          const c = counts[index];
          if (!c) continue;
          c.profiles++;
          if ((goalAt.get(profile) ?? -1) >= a.at) c.goal++;
        }
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
