import type { Journey } from '@svc/journey';

/** Instants are Unix epoch milliseconds throughout the engine. */
export type Instant = number;

export const DAY_MS = 86_400_000;

/** A period during which the journey was paused; `to` null while it still is. */
export interface PauseInterval {
  from: Instant;
  to: Instant | null;
}

/** Is the profile in the segment now? Precomputed by the caller (e.g. from segment member sets). */
export type MembershipOracle = (segmentId: string, profileKey: string) => boolean;

/** A profile of the parent segment: its key and the column values the engine may need (A/B unique ids). */
export interface EngineProfile {
  key: string;
  /** Column values by column name; an A/B test reads its `uniqueId` column here. */
  columns?: Readonly<Record<string, unknown>>;
}

/** Why a profile left a stage or the journey. */
/** `version_changed`: the profile's stage or step changed in a version that replaced the journey (server). */
export type LeaveReason = 'goal' | 'exit_segment' | 'exit_after' | 'milestone' | 'completed' | 'version_changed';

/**
 * Where one profile stands in one journey. Plain JSON so that callers can persist it as is. A profile
 * that left keeps its row (status `left`) so that re-entry rules and A/B assignments survive.
 */
export interface ProfileState {
  profileKey: string;
  status: 'active' | 'left';
  /** Stage the profile is in (or was in when it left). */
  stageId: string;
  /** Current step; null when the stage's path ended without an End step or the stage has no steps. */
  stepId: string | null;
  journeyEnteredAt: Instant;
  stageEnteredAt: Instant;
  stepEnteredAt: Instant;
  /** How many times the profile entered the journey. */
  entries: number;
  leftAt: Instant | null;
  leftReason: LeaveReason | null;
  /** A/B assignments by test step id, kept across re-entries. */
  variants: Record<string, string>;
  /** Branch taken at each decision point during the current entry, by step id. */
  branches: Record<string, string>;
  /** True while held at a decision point that no path matched (the hold is recorded once). */
  held: boolean;
  /** Instant of the last run that looked at this profile; a run at or before it changes nothing. */
  lastRunAt: Instant;
}

export type EngineEventType =
  | 'journey_entered'
  | 'journey_left'
  | 'stage_entered'
  | 'stage_left'
  | 'milestone_reached'
  | 'step_entered'
  | 'step_left'
  | 'branch_taken'
  | 'step_held'
  | 'variant_assigned'
  | 'activation_queued'
  | 'goal_reached'
  | 'exit_matched';

/**
 * One entry of the append-only log. Flat so it maps to one table row; fields that do not apply to a
 * type are absent.
 */
export interface EngineEvent {
  at: Instant;
  profileKey: string;
  type: EngineEventType;
  stageId?: string;
  stepId?: string;
  branchId?: string;
  variantId?: string;
  activationId?: string;
  segmentId?: string;
  reason?: LeaveReason | 'no_matching_path' | 'path_loop';
  /** Index of the exit criterion that matched (exit_matched). */
  criterionIndex?: number;
  /** A/B bucket 0..9999 (variant_assigned); whether the assignment was kept from an earlier entry. */
  bucket?: number;
  kept?: boolean;
  /** When a wait is expected to end, given the pauses known at the time (step_entered on a WaitStep). */
  dueAt?: Instant;
}

/** A profile queued for the next delivery of an activation. */
export interface QueuedActivation {
  activationId: string;
  profileKey: string;
  stageId: string;
  stepId: string;
  at: Instant;
}

export interface RunInput {
  journeyId: string;
  journey: Journey;
  at: Instant;
  pauses: ReadonlyArray<PauseInterval>;
  profiles: Iterable<EngineProfile>;
  /** Persisted states by profile key; profiles without one have never entered. */
  states: ReadonlyMap<string, ProfileState>;
  isMember: MembershipOracle;
}

export interface RunResult {
  /** True when the journey was not run (draft, or paused at that instant); nothing else is set then. */
  skipped: false | 'draft' | 'paused';
  /** States that changed, by profile key (unchanged ones are left out). */
  changed: Map<string, ProfileState>;
  events: EngineEvent[];
  queued: QueuedActivation[];
}
