import type { Journey } from '@svc/journey';
import type { CompiledJourney } from './compile';
import { compileJourney } from './compile';
import { explainEvent } from './explain';
import type { AdvanceContext, AdvanceOutput } from './profile';
import { advanceProfile, waitDueAt } from './profile';
import type { Pauses } from './time';
import { dueAfter, normalizePauses } from './time';
import type { EngineEvent, EngineProfile, Instant, MembershipOracle, PauseInterval, ProfileState } from './types';

export interface SimulationInput {
  journeyId: string;
  /** A draft or a launched journey; the simulation runs either. */
  journey: Journey;
  profile: EngineProfile;
  /** The profile's persisted state, if it is already in the journey. */
  state?: ProfileState;
  from: Instant;
  until: Instant;
  /** Past pauses; a pause still open at `from` is treated as ending at `from` (as if resumed now). */
  pauses?: ReadonlyArray<PauseInterval>;
  /** Segment membership as of now; the simulation assumes it does not change. */
  isMember: MembershipOracle;
}

export interface SimulationStep {
  at: Instant;
  event: EngineEvent;
  explanation: string;
}

export interface SimulationResult {
  steps: SimulationStep[];
  /** The profile's state at `until` (null when it never entered). */
  state: ProfileState | null;
  /** Why the simulation stopped: it reached `until`, the profile left the journey, or it cannot move. */
  stoppedBecause: 'until' | 'left' | 'no_entry' | 'settled';
  /** Number of engine runs simulated (one per instant at which something could change). */
  runs: number;
}

const MAX_RUNS = 1_000;

/** The next instant after `at` when the profile's position could change without a segment change. */
export function nextDueAt(journey: CompiledJourney, pauses: Pauses, state: ProfileState, at: Instant): Instant | null {
  if (state.status !== 'active') return null;
  const stage = journey.stageById.get(state.stageId);
  if (!stage) return null;
  const candidates: number[] = [];
  const step = state.stepId === null ? undefined : stage.steps[state.stepId];
  if (step) {
    const due = waitDueAt(pauses, step, state.stepEnteredAt);
    if (due !== undefined) candidates.push(due);
  }
  for (const exit of stage.exits) {
    if (exit.afterMs !== null) candidates.push(dueAfter(pauses, state.stageEnteredAt, exit.afterMs));
  }
  const next = Math.min(...candidates.filter((c) => c > at && Number.isFinite(c)));
  return Number.isFinite(next) ? next : null;
}

/**
 * A dry run for one profile from `from` to `until`: the engine is run at `from` and then at each instant
 * a wait or an exitAfter ends, and every event is returned with a sentence saying why. Nothing is
 * persisted: the caller gets the would-be state and decides what to show.
 */
export function simulateProfile(input: SimulationInput): SimulationResult {
  const journey = compileJourney(input.journeyId, input.journey);
  const pauses = normalizePauses(
    (input.pauses ?? []).map((p) => ({ from: p.from, to: p.to === null || p.to > input.from ? input.from : p.to })),
  );
  const steps: SimulationStep[] = [];
  let state: ProfileState | null = input.state
    ? { ...input.state, variants: { ...input.state.variants }, branches: { ...input.state.branches } }
    : null;
  let at = input.from;
  let runs = 0;
  let stoppedBecause: SimulationResult['stoppedBecause'] = 'settled';
  while (runs < MAX_RUNS) {
    runs++;
    const ctx: AdvanceContext = { journey, pauses, isMember: input.isMember, at };
    const out: AdvanceOutput = { events: [], queued: [] };
    const next = advanceProfile(ctx, input.profile, state ?? undefined, out);
    if (next) state = next;
    for (const event of out.events) {
      if (event.type === 'step_left') continue;
      steps.push({ at: event.at, event, explanation: explainEvent(journey, event) });
    }
    if (!state) {
      stoppedBecause = 'no_entry';
      break;
    }
    if (state.status === 'left') {
      stoppedBecause = 'left';
      break;
    }
    const due = nextDueAt(journey, pauses, state, at);
    if (due === null) break;
    if (due > input.until) {
      stoppedBecause = 'until';
      break;
    }
    at = due;
  }
  return { steps, state, stoppedBecause, runs };
}
