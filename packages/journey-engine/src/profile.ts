import type { ABTestStep, DecisionPointStep, Step } from '@svc/journey';
import { abBucket, uniqueValueOf, variantIndexForBucket } from './ab';
import type { CompiledJourney, CompiledStage } from './compile';
import type { Pauses } from './time';
import { activeMs, dueAfter, unitMs } from './time';
import type {
  EngineEvent,
  EngineProfile,
  Instant,
  LeaveReason,
  MembershipOracle,
  ProfileState,
  QueuedActivation,
} from './types';

/** What one profile's advance needs besides the profile: fixed for a whole run. */
export interface AdvanceContext {
  journey: CompiledJourney;
  pauses: Pauses;
  isMember: MembershipOracle;
  at: Instant;
}

export interface AdvanceOutput {
  events: EngineEvent[];
  queued: QueuedActivation[];
}

type Event = Omit<EngineEvent, 'at' | 'profileKey'>;

/**
 * The stage a profile outside the journey enters now, or null. Stages are tried from the last to the
 * first, so a profile that already qualifies for a later stage starts there. A stage is skipped when the
 * profile would leave it at once: in one of its exit segments, or (last stage) in its milestone. Nobody
 * enters while in the goal segment.
 */
export function entryStage(ctx: AdvanceContext, key: string): CompiledStage | null {
  const { journey, isMember } = ctx;
  if (journey.goalSegment && isMember(journey.goalSegment, key)) return null;
  const last = journey.stages.length - 1;
  for (let k = last; k >= 0; k--) {
    const stage = journey.stages[k]!;
    if (!stage.entrySegment || !isMember(stage.entrySegment, key)) continue;
    if (stage.exits.some((e) => e.segmentId !== null && isMember(e.segmentId, key))) continue;
    if (k === last && stage.milestoneSegment && isMember(stage.milestoneSegment, key)) continue;
    return stage;
  }
  return null;
}

/** When the wait a profile sits in ends, given the pauses known now. */
export function waitDueAt(pauses: Pauses, step: Step, enteredAt: Instant): Instant | undefined {
  if (step.type !== 'WaitStep') return undefined;
  return dueAfter(pauses, enteredAt, unitMs(step.waitStep, step.waitStepUnit));
}

/**
 * Moves one profile as far as it can go at `ctx.at`; returns its new state, or undefined when nothing
 * changed. Every change is also an event, appended to `out.events`. The prior state is not mutated.
 */
export function advanceProfile(
  ctx: AdvanceContext,
  profile: EngineProfile,
  prior: ProfileState | undefined,
  out: AdvanceOutput,
): ProfileState | undefined {
  return new ProfileWalker(ctx, out).advance(profile, prior);
}

/**
 * Does the work of `advanceProfile`. One walker serves a whole run (methods, not closures made per
 * profile, keep a 100,000-profile run cheap); it holds the profile being moved while it moves it.
 */
export class ProfileWalker {
  private key = '';
  private profile: EngineProfile = { key: '' };
  private s!: ProfileState;
  /** Whether `s.variants` and `s.branches` are this walker's copies (copied before the first write). */
  private ownMaps = false;

  constructor(
    private readonly ctx: AdvanceContext,
    private readonly out: AdvanceOutput,
  ) {}

  advance(profile: EngineProfile, prior: ProfileState | undefined): ProfileState | undefined {
    const { at, journey } = this.ctx;
    if (prior && prior.lastRunAt >= at) return undefined;
    this.key = profile.key;
    this.profile = profile;
    const before = this.out.events.length;
    if (!prior || prior.status === 'left') {
      if (prior && (!journey.allowReentry || (prior.leftAt ?? 0) >= at)) return undefined;
      const stage = entryStage(this.ctx, this.key);
      if (!stage) return undefined;
      this.s = {
        profileKey: this.key,
        status: 'active',
        stageId: stage.id,
        stepId: null,
        journeyEnteredAt: at,
        stageEnteredAt: at,
        stepEnteredAt: at,
        entries: (prior?.entries ?? 0) + 1,
        leftAt: null,
        leftReason: null,
        variants: { ...prior?.variants },
        branches: {},
        held: false,
        lastRunAt: at,
      };
      this.ownMaps = true;
      this.emit({ type: 'journey_entered', stageId: stage.id, segmentId: stage.entrySegment ?? undefined });
      this.enterStage(stage);
    } else {
      this.s = { ...prior };
      this.ownMaps = false;
    }
    this.checkAndWalk();
    if (this.out.events.length === before) return undefined;
    this.s.lastRunAt = at;
    return this.s;
  }

  private emit(e: Event) {
    this.out.events.push({ at: this.ctx.at, profileKey: this.key, ...e });
  }

  private writableMaps() {
    if (this.ownMaps) return;
    this.s.variants = { ...this.s.variants };
    this.s.branches = { ...this.s.branches };
    this.ownMaps = true;
  }

  /** Goal, exit criteria and milestone come before the steps; a milestone can carry the profile through several stages. */
  private checkAndWalk() {
    const { journey, isMember, pauses, at } = this.ctx;
    const s = this.s;
    const key = this.key;
    for (let hops = 0; hops <= journey.stages.length && s.status === 'active'; hops++) {
      const stage = journey.stageById.get(s.stageId);
      if (!stage) {
        // The stage no longer exists in this journey version: the profile's path is over.
        this.emit({ type: 'journey_left', stageId: s.stageId, reason: 'completed' });
        Object.assign(s, { status: 'left', leftAt: at, leftReason: 'completed', held: false });
        return;
      }
      if (journey.goalSegment && isMember(journey.goalSegment, key)) {
        this.emit({ type: 'goal_reached', stageId: stage.id, segmentId: journey.goalSegment });
        this.leave(stage, 'goal');
        return;
      }
      for (const exit of stage.exits) {
        const bySegment = exit.segmentId !== null && isMember(exit.segmentId, key);
        if (!bySegment && (exit.afterMs === null || activeMs(pauses, s.stageEnteredAt, at) < exit.afterMs)) continue;
        this.emit({
          type: 'exit_matched',
          stageId: stage.id,
          criterionIndex: exit.index,
          segmentId: bySegment ? (exit.segmentId ?? undefined) : undefined,
        });
        this.leave(stage, bySegment ? 'exit_segment' : 'exit_after');
        return;
      }
      if (stage.milestoneSegment && isMember(stage.milestoneSegment, key)) {
        this.emit({ type: 'milestone_reached', stageId: stage.id, segmentId: stage.milestoneSegment });
        const next = journey.stages[stage.index + 1];
        if (!next) {
          this.leave(stage, 'completed');
          return;
        }
        this.leaveStep(stage);
        this.emit({ type: 'stage_left', stageId: stage.id, reason: 'milestone' });
        s.stepId = null;
        this.enterStage(next);
        continue;
      }
      this.walk(stage);
      return;
    }
  }

  private enterStage(stage: CompiledStage) {
    this.s.stageId = stage.id;
    this.s.stageEnteredAt = this.ctx.at;
    this.s.held = false;
    this.emit({ type: 'stage_entered', stageId: stage.id });
    this.arrive(stage, stage.rootStep);
  }

  private arrive(stage: CompiledStage, stepId: string | null) {
    const s = this.s;
    s.stepEnteredAt = this.ctx.at;
    s.held = false;
    const step = stepId === null ? undefined : stage.steps[stepId];
    if (!step || stepId === null) {
      s.stepId = null;
      return;
    }
    s.stepId = stepId;
    this.emit({
      type: 'step_entered',
      stageId: stage.id,
      stepId,
      dueAt: waitDueAt(this.ctx.pauses, step, this.ctx.at),
    });
  }

  /**
   * Records leaving the current step when the profile stayed there since an earlier run (a wait, an End,
   * a hold). A step passed through within one run is left at the instant it was entered, so that
   * `step_left` would say nothing new; leaving it out keeps the log about a third smaller.
   */
  private leaveStep(stage: CompiledStage) {
    const s = this.s;
    if (s.stepId !== null && s.stepEnteredAt < this.ctx.at) {
      this.emit({ type: 'step_left', stageId: stage.id, stepId: s.stepId });
    }
  }

  private move(stage: CompiledStage, next: string | null) {
    this.leaveStep(stage);
    this.arrive(stage, next || null);
  }

  private leave(stage: CompiledStage, reason: LeaveReason) {
    const s = this.s;
    this.leaveStep(stage);
    this.emit({ type: 'stage_left', stageId: stage.id, reason });
    this.emit({ type: 'journey_left', stageId: stage.id, reason });
    s.status = 'left';
    s.leftAt = this.ctx.at;
    s.leftReason = reason;
    s.held = false;
  }

  private hold(stage: CompiledStage, stepId: string, reason: 'no_matching_path' | 'path_loop') {
    if (!this.s.held) this.emit({ type: 'step_held', stageId: stage.id, stepId, reason });
    this.s.held = true;
  }

  private decide(stage: CompiledStage, stepId: string, step: DecisionPointStep): boolean {
    const { isMember } = this.ctx;
    let chosen = step.branches.find((b) => !b.excludedPath && b.segmentId && isMember(b.segmentId, this.key));
    chosen ??= step.branches.find((b) => b.excludedPath);
    if (!chosen) {
      // No path matches and there is no excluded path: hold here and try again at every run.
      this.hold(stage, stepId, 'no_matching_path');
      return false;
    }
    this.emit({
      type: 'branch_taken',
      stageId: stage.id,
      stepId,
      branchId: chosen.id,
      segmentId: chosen.excludedPath ? undefined : (chosen.segmentId ?? undefined),
    });
    this.writableMaps();
    this.s.branches[stepId] = chosen.id;
    this.move(stage, chosen.next);
    return true;
  }

  private split(stage: CompiledStage, stepId: string, step: ABTestStep): boolean {
    const { journey } = this.ctx;
    const known = this.s.variants[stepId];
    let index = known === undefined ? -1 : step.variants.findIndex((v) => v.id === known);
    let bucket: number | undefined;
    if (index < 0) {
      bucket = abBucket(uniqueValueOf(this.profile.columns, step.uniqueId, this.key), journey.journeyId, stepId);
      index = variantIndexForBucket(journey.splits.get(stepId) ?? [], bucket);
    }
    const variant = step.variants[index];
    if (!variant) {
      this.hold(stage, stepId, 'no_matching_path');
      return false;
    }
    this.emit({
      type: 'variant_assigned',
      stageId: stage.id,
      stepId,
      variantId: variant.id,
      bucket,
      kept: bucket === undefined,
    });
    this.writableMaps();
    this.s.variants[stepId] = variant.id;
    this.move(stage, variant.next);
    return true;
  }

  /** Walks the stage's steps until the profile has to wait, is held, or reaches the end of its path. */
  private walk(stage: CompiledStage) {
    const s = this.s;
    const { at, pauses } = this.ctx;
    // Launched journeys have no loops; the bound keeps a broken draft from spinning.
    for (let visits = 0; s.stepId !== null; visits++) {
      const stepId = s.stepId;
      const step = stage.steps[stepId];
      if (!step) {
        s.stepId = null;
        return;
      }
      if (s.held && step.type !== 'DecisionPoint') return;
      if (visits > stage.stepCount) {
        this.hold(stage, stepId, 'path_loop');
        return;
      }
      switch (step.type) {
        case 'End':
          return;
        case 'WaitStep':
          if (at < (waitDueAt(pauses, step, s.stepEnteredAt) ?? at)) return;
          this.move(stage, step.next);
          break;
        case 'Merge':
          this.move(stage, step.next);
          break;
        case 'Activation': {
          const activationId = step.journeyActivationStepId;
          if (activationId) {
            this.emit({ type: 'activation_queued', stageId: stage.id, stepId, activationId });
            this.out.queued.push({ activationId, profileKey: this.key, stageId: stage.id, stepId, at });
          }
          this.move(stage, step.next);
          break;
        }
        case 'DecisionPoint':
          if (!this.decide(stage, stepId, step)) return;
          break;
        case 'ABTest':
          if (!this.split(stage, stepId, step)) return;
          break;
      }
    }
  }
}
