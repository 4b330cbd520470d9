import type { Journey } from '../journey';
import type { RuleContext } from '../steps/kind';
import { kindOf, stepExits } from '../steps/registry';
import type { StepLocation, Violation } from '../violations';
import { stepPath, violation } from '../violations';
import { checkGoal, checkGoalForLaunch, checkStageCompleteForLaunch, checkStageCriteria } from './criteria-rules';
import type { StageStructure } from './graph-rules';
import { checkStageGraph } from './graph-rules';

/** What the rules may check against; leave a part out to skip the rules that need it. */
export interface ValidationContext {
  /** Segment ids of the journey's parent segment. */
  segmentIds?: Iterable<string>;
  /** Column names of the parent segment (for A/B `uniqueId`). */
  columns?: Iterable<string>;
  /** Ids of the journey's existing activations (journeyActivationSteps). */
  activationIds?: Iterable<string>;
  /** Ids of the stages the stored journey has; a stage naming any other id is reported. */
  stageIds?: Iterable<string>;
}

function ruleContext(context: ValidationContext): RuleContext {
  const out: RuleContext = {};
  if (context.segmentIds) out.segmentIds = new Set(context.segmentIds);
  if (context.columns) out.columns = new Set(context.columns);
  if (context.activationIds) out.activationIds = new Set(context.activationIds);
  return out;
}

function location(journey: Journey, stageIndex: number, stepId: string): StepLocation {
  const stageId = journey.journeyStages[stageIndex]?.id;
  return stageId === undefined ? { stageIndex, stepId } : { stageIndex, stageId, stepId };
}

/** Step ids are unique across the journey; branch and variant ids are unique among all of its ids. */
function checkIds(journey: Journey): { violations: Violation[]; stageOfStep: Map<string, number> } {
  const found: Violation[] = [];
  const stageOfStep = new Map<string, number>();
  journey.journeyStages.forEach((stage, stageIndex) => {
    for (const stepId of Object.keys(stage.steps ?? {})) {
      const first = stageOfStep.get(stepId);
      if (first === undefined) stageOfStep.set(stepId, stageIndex);
      else {
        found.push(
          violation(
            'step.id_duplicate',
            `Step id ${stepId} is also used in stage ${first + 1}; every step needs its own id.`,
            stepPath(location(journey, stageIndex, stepId)),
          ),
        );
      }
    }
  });
  const seen = new Set(stageOfStep.keys());
  journey.journeyStages.forEach((stage, stageIndex) => {
    for (const [stepId, step] of Object.entries(stage.steps ?? {})) {
      const at = location(journey, stageIndex, stepId);
      const items =
        step.type === 'DecisionPoint'
          ? step.branches.map((b, i) => ({
              id: b.id,
              parts: stepPath(at, { branchIndex: i, field: 'id' }),
              what: 'path',
            }))
          : step.type === 'ABTest'
            ? step.variants.map((v, i) => ({
                id: v.id,
                parts: stepPath(at, { variantIndex: i, field: 'id' }),
                what: 'variant',
              }))
            : [];
      for (const item of items) {
        if (seen.has(item.id)) {
          found.push(
            violation(
              item.what === 'path' ? 'branch.id_duplicate' : 'variant.id_duplicate',
              `This ${item.what} reuses id ${item.id}, which another step, path or variant already has; give it its own id.`,
              item.parts,
            ),
          );
        }
        seen.add(item.id);
      }
    }
  });
  return { violations: found, stageOfStep };
}

/** Stage ids are the server's: each names a stage of the stored journey (when known), at most once. */
function checkStageIds(journey: Journey, known: ReadonlySet<string> | null): Violation[] {
  const found: Violation[] = [];
  const seen = new Set<string>();
  journey.journeyStages.forEach((stage, stageIndex) => {
    const id = stage.id;
    if (id === undefined) return;
    const parts = { stageIndex, stageId: id, field: 'id' };
    if (seen.has(id)) {
      found.push(
        violation(
          'stage.id_duplicate',
          `Stage id ${id} is given to two stages; leave the id out of the new one.`,
          parts,
        ),
      );
    } else if (known && !known.has(id)) {
      found.push(
        violation(
          'stage.id_unknown',
          `This journey has no stage ${id}; leave the id out for a new stage, or use the id of one of its stages.`,
          parts,
        ),
      );
    }
    seen.add(id);
  });
  return found;
}

function validate(journey: Journey, context: ValidationContext) {
  const rules = ruleContext(context);
  const found: Violation[] = [];
  found.push(...checkStageIds(journey, context.stageIds ? new Set(context.stageIds) : null));
  if (!journey.name.trim()) {
    found.push(violation('journey.name_missing', 'The journey has no name; name it.', { field: 'name' }));
  }
  found.push(...checkGoal(journey, rules));
  const ids = checkIds(journey);
  found.push(...ids.violations);
  const structures: StageStructure[] = [];
  journey.journeyStages.forEach((stage, stageIndex) => {
    found.push(...checkStageCriteria(stage, stageIndex, rules));
    for (const [stepId, step] of Object.entries(stage.steps ?? {})) {
      found.push(...kindOf(step).check(step, location(journey, stageIndex, stepId), rules));
    }
    const graph = checkStageGraph({ stage, stageIndex }, ids.stageOfStep);
    found.push(...graph.violations);
    structures.push(graph.structure);
  });
  return { found, rules, structures };
}

/**
 * The rules checked on every save, all violations at once. Those `blocksDraft` picks stop a draft from
 * being stored; the others are reported with it and stop only its launch.
 */
export function validateJourney(journey: Journey, context: ValidationContext = {}): Violation[] {
  return validate(journey, context).found;
}

/**
 * The draft rules plus completeness for launch: at least one stage; stages named, with entry criteria,
 * a milestone on all but the last stage and at least one step; every path ends in an End step (a
 * `next` of null is an unfinished path); every activation step names an existing activation; A/B
 * tests named, with named variants and a unique-ID column; a goal has a segment.
 */
export function validateForLaunch(journey: Journey, context: ValidationContext = {}): Violation[] {
  const { found, rules, structures } = validate(journey, context);
  if (journey.journeyStages.length === 0) {
    found.push(violation('stage.empty', 'The journey has no stages; add at least one.', { field: 'journeyStages' }));
  }
  found.push(...checkGoalForLaunch(journey));
  journey.journeyStages.forEach((stage, stageIndex) => {
    const isLast = stageIndex === journey.journeyStages.length - 1;
    found.push(...checkStageCompleteForLaunch(stage, stageIndex, isLast));
    const structure = structures[stageIndex] as StageStructure;
    if (structure.graph.ids.length === 0) {
      const parts = stage.id === undefined ? { stageIndex } : { stageIndex, stageId: stage.id };
      found.push(
        violation('stage.empty', `Stage ${stageIndex + 1} has no steps; add at least an End step.`, {
          ...parts,
          field: 'steps',
        }),
      );
    }
    for (const [stepId, step] of Object.entries(stage.steps ?? {})) {
      const at = location(journey, stageIndex, stepId);
      found.push(...kindOf(step).checkForLaunch(step, at, rules));
      if (!structure.reached.has(stepId)) continue;
      for (const exit of stepExits(step)) {
        if (exit.target !== null) continue;
        const slot = exit.slot;
        const extra =
          slot.kind === 'branch'
            ? { branchIndex: slot.index }
            : slot.kind === 'variant'
              ? { variantIndex: slot.index }
              : {};
        found.push(
          violation(
            'graph.path_open',
            `The path "${exit.label}" stops here without an End step; lead it to another step or add an End step.`,
            stepPath(at, { ...extra, field: 'next' }),
          ),
        );
      }
    }
  });
  return found;
}

/**
 * The rules even a draft must meet to be stored: ids that identify one thing each, connections that lead to a
 * step of the same stage, no loop, segments of the journey's own parent segment, and the spec's limits (paths,
 * variants, decision and A/B layers). Every other rule (names,
 * segments still to choose, wait lengths, splits, reachability) is a problem the draft may keep until launch:
 * drafts save with them, as a marketer saves half-built work, and launch refuses them.
 */
const DRAFT_BLOCKING: ReadonlySet<string> = new Set([
  'step.id_duplicate',
  'branch.id_duplicate',
  'variant.id_duplicate',
  'stage.id_duplicate',
  'stage.id_unknown',
  'stage.root_missing',
  'step.next_unknown',
  'step.next_other_stage',
  'graph.cycle',
  'segment.unknown',
  'decision.branch_count',
  'ab.variant_count',
  'stage.decision_layers',
  'stage.ab_layers',
]);

/** Whether a violation stops a draft from being saved (otherwise it only stops the launch). */
export function blocksDraft(found: Violation): boolean {
  return DRAFT_BLOCKING.has(found.code);
}
