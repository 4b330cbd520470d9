/** Every rule the validator knows, as a stable code that clients can match on. */
export type ViolationCode =
  | 'shape.invalid'
  | 'step.type_unknown'
  | 'journey.name_missing'
  | 'stage.root_missing'
  | 'stage.decision_layers'
  | 'stage.ab_layers'
  | 'stage.name_missing'
  | 'stage.entry_missing'
  | 'stage.milestone_missing'
  | 'stage.empty'
  | 'stage.id_unknown'
  | 'stage.id_duplicate'
  | 'step.id_duplicate'
  | 'step.next_unknown'
  | 'step.next_other_stage'
  | 'step.unreachable'
  | 'graph.cycle'
  | 'graph.rejoin_without_merge'
  | 'graph.path_open'
  | 'decision.branch_count'
  | 'decision.excluded_path_count'
  | 'decision.excluded_path_segment'
  | 'decision.branch_segment_missing'
  | 'branch.id_duplicate'
  | 'ab.variant_count'
  | 'ab.percentage_sum'
  | 'ab.percentage_integer'
  | 'ab.unique_id_unknown'
  | 'ab.unique_id_missing'
  | 'ab.name_missing'
  | 'ab.variant_name_missing'
  | 'variant.id_duplicate'
  | 'wait.unit'
  | 'wait.length'
  | 'activation.unknown'
  | 'activation.missing'
  | 'segment.unknown'
  | 'exit.incomplete'
  | 'exit.after'
  | 'exit.unit'
  | 'goal.segment_missing';

/** Where a violation sits; `text` is the same place as a printable property path. */
export interface ViolationPath {
  stageIndex?: number;
  stageId?: string;
  stepId?: string;
  branchIndex?: number;
  variantIndex?: number;
  exitCriterionIndex?: number;
  field?: string;
  text: string;
}

export type PathParts = Omit<ViolationPath, 'text'>;

export interface Violation {
  code: ViolationCode;
  message: string;
  path: ViolationPath;
}

/** Builds a path and its printable form, e.g. `journeyStages[0].steps["a1"].branches[2].segmentId`. */
export function makePath(parts: PathParts): ViolationPath {
  const segments: string[] = [];
  if (parts.stageIndex !== undefined) segments.push(`journeyStages[${parts.stageIndex}]`);
  if (parts.exitCriterionIndex !== undefined) segments.push(`exitCriterias[${parts.exitCriterionIndex}]`);
  if (parts.stepId !== undefined) segments.push(`steps[${JSON.stringify(parts.stepId)}]`);
  if (parts.branchIndex !== undefined) segments.push(`branches[${parts.branchIndex}]`);
  if (parts.variantIndex !== undefined) segments.push(`variants[${parts.variantIndex}]`);
  if (parts.field !== undefined) segments.push(parts.field);
  const path: ViolationPath = { ...parts, text: segments.join('.') || '(journey)' };
  return path;
}

export function violation(code: ViolationCode, message: string, parts: PathParts): Violation {
  return { code, message, path: makePath(parts) };
}

/** Where a step sits: what the step rules receive so their paths name the stage too. */
export interface StepLocation {
  stageIndex: number;
  stageId?: string;
  stepId: string;
}

export function stepPath(
  at: StepLocation,
  extra: Omit<PathParts, 'stageIndex' | 'stageId' | 'stepId'> = {},
): PathParts {
  const parts: PathParts = { stageIndex: at.stageIndex, stepId: at.stepId, ...extra };
  if (at.stageId !== undefined) parts.stageId = at.stageId;
  return parts;
}

/** English ordinal for messages ("3rd"). */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}
