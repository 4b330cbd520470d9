import type { Step } from '@svc/journey';
import { branchLabel, stepKinds, variantLabel } from '@svc/journey';
import type { CompiledJourney } from './compile';
import type { EngineEvent, LeaveReason } from './types';
import { DAY_MS } from './types';

const iso = (at: number) => new Date(at).toISOString();

function stepName(step: Step | undefined, stepId: string): string {
  if (!step) return `step ${stepId}`;
  const name = 'name' in step && step.name ? step.name : '';
  const label = stepKinds[step.type].label;
  return name && name !== label ? `${label} "${name}"` : label;
}

const reasons: Record<LeaveReason, string> = {
  goal: 'the goal was reached',
  exit_segment: 'an exit criterion matched',
  exit_after: 'its time in the stage ran out',
  milestone: 'the milestone was reached',
  completed: 'the journey is complete',
  version_changed: 'a new version of the journey changed its place',
};

/** One sentence saying what happened and why, for the simulation panel. */
export function explainEvent(journey: CompiledJourney, event: EngineEvent): string {
  const stage = event.stageId ? journey.stageById.get(event.stageId) : undefined;
  const stageName = stage ? `stage "${stage.name || stage.id}"` : 'the stage';
  const step = stage && event.stepId ? stage.steps[event.stepId] : undefined;
  const what = event.stepId ? stepName(step, event.stepId) : '';
  switch (event.type) {
    case 'journey_entered':
      return `Enters the journey at ${stageName}: in its entry segment ${event.segmentId ?? ''}.`.replace(' .', '.');
    case 'stage_entered':
      return `Enters ${stageName}.`;
    case 'stage_left':
      return `Leaves ${stageName}: ${reasons[event.reason as LeaveReason] ?? event.reason}.`;
    case 'journey_left':
      return `Leaves the journey: ${reasons[event.reason as LeaveReason] ?? event.reason}.`;
    case 'milestone_reached':
      return `In milestone segment ${event.segmentId} of ${stageName}: reaches the milestone.`;
    case 'goal_reached':
      return `In goal segment ${event.segmentId}: reaches the goal.`;
    case 'exit_matched': {
      const criterion = stage?.exits[event.criterionIndex ?? -1];
      const name = criterion?.name ? ` "${criterion.name}"` : '';
      if (event.segmentId) return `Exit criterion${name} matches: in segment ${event.segmentId}.`;
      const days = criterion?.afterMs ? criterion.afterMs / DAY_MS : 0;
      return `Exit criterion${name} matches: ${days} day${days === 1 ? '' : 's'} in ${stageName} have passed.`;
    }
    case 'step_entered':
      if (step?.type === 'WaitStep') {
        const until = event.dueAt !== undefined && Number.isFinite(event.dueAt) ? ` until ${iso(event.dueAt)}` : '';
        return `Waits ${step.waitStep} ${step.waitStepUnit}${step.waitStep === 1 ? '' : 's'} at ${what}${until} (paused time does not count).`;
      }
      return `Reaches ${what}.`;
    case 'step_left':
      return `Leaves ${what}.`;
    case 'branch_taken': {
      const branches = step?.type === 'DecisionPoint' ? step.branches : [];
      const index = branches.findIndex((b) => b.id === event.branchId);
      const branch = branches[index];
      const label = branch ? `"${branchLabel(branch, index)}"` : event.branchId;
      if (event.segmentId)
        return `${what}: in segment ${event.segmentId}, the first matching path, so follows ${label}.`;
      return `${what}: in none of the path segments, so follows the excluded path ${label}.`;
    }
    case 'step_held':
      if (event.reason === 'path_loop') return `${what}: the path loops back on itself; the profile stops here.`;
      return `${what}: in none of the path segments and there is no excluded path, so it stays here until a path matches.`;
    case 'variant_assigned': {
      const variants = step?.type === 'ABTest' ? step.variants : [];
      const index = variants.findIndex((v) => v.id === event.variantId);
      const variant = variants[index];
      const label = variant ? `"${variantLabel(variant, index)}"` : event.variantId;
      if (event.kept) return `${what}: keeps variant ${label} from an earlier entry.`;
      const share = journey.splits.get(event.stepId ?? '')?.[index];
      const pct = share === undefined ? '' : ` (${share} %)`;
      return `${what}: bucket ${event.bucket} of 10,000 falls in variant ${label}${pct}.`;
    }
    case 'activation_queued':
      return `${what}: queued for the next delivery of activation ${event.activationId}.`;
  }
}
