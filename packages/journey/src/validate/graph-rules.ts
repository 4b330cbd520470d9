import type { StageEdge, StageGraph } from '../graph/stage-graph';
import { edgeKey, stageGraph, walk } from '../graph/stage-graph';
import type { Stage } from '../journey';
import type { ExitSlot, StepExit } from '../steps/kind';
import { stepKinds } from '../steps/registry';
import type { PathParts, Violation } from '../violations';
import { ordinal, violation } from '../violations';

/** At most this many decision points, and separately A/B tests, on any path through a stage. */
export const MAX_DECISION_LAYERS = 2;
export const MAX_AB_LAYERS = 2;

interface StageAt {
  stage: Stage;
  stageIndex: number;
}

function base({ stage, stageIndex }: StageAt): PathParts {
  return stage.id === undefined ? { stageIndex } : { stageIndex, stageId: stage.id };
}

function exitParts(at: StageAt, stepId: string, slot: ExitSlot): PathParts {
  if (slot.kind === 'branch') return { ...base(at), stepId, branchIndex: slot.index, field: 'next' };
  if (slot.kind === 'variant') return { ...base(at), stepId, variantIndex: slot.index, field: 'next' };
  return { ...base(at), stepId, field: 'next' };
}

function stageTitle({ stage, stageIndex }: StageAt): string {
  return stage.name ? `stage "${stage.name}"` : `stage ${stageIndex + 1}`;
}

/** Result of the structural pass, reused by the launch rules. */
export interface StageStructure {
  graph: StageGraph;
  root: string | null;
  reached: ReadonlySet<string>;
}

/**
 * The rules on how a stage's steps connect: a valid root, `next` within the stage, every step reachable,
 * no loops anywhere in the stage's steps (reachable or not), rejoining only through a Merge, and the decision-point and A/B layer limits.
 * `stageOfStep` maps every step id of the journey to its stage index.
 */
export function checkStageGraph(
  at: StageAt,
  stageOfStep: ReadonlyMap<string, number>,
): { violations: Violation[]; structure: StageStructure } {
  const found: Violation[] = [];
  const graph = stageGraph(at.stage);
  const rootStep = at.stage.rootStep;
  const root = rootStep !== null && Object.hasOwn(graph.steps, rootStep) ? rootStep : null;
  if (root === null && (rootStep !== null || graph.ids.length > 0)) {
    const message =
      rootStep === null
        ? `The ${stageTitle(at)} has steps but no first step; set rootStep to the step profiles start with.`
        : `The ${stageTitle(at)} starts with step ${rootStep}, which is not one of its steps; set rootStep to one of them.`;
    found.push(violation('stage.root_missing', message, { ...base(at), field: 'rootStep' }));
  }

  for (const id of graph.ids) {
    for (const exit of graph.exits.get(id) as StepExit[]) {
      found.push(...checkTarget(at, id, exit, graph, stageOfStep));
    }
  }

  const { order, reached, backEdgeKeys } = walk(graph, root === null ? [] : [root]);
  // Loops are looked for in the whole step graph, not only from the root: a loop among steps no path
  // reaches (or in a stage without a valid root) is still a loop. Starting at the root first keeps the
  // reachable part's back edges the same as above.
  const { backEdges } = walk(graph, root === null ? graph.ids : [root, ...graph.ids]);
  if (root !== null) {
    for (const id of graph.ids) {
      if (!reached.has(id)) {
        found.push(
          violation(
            'step.unreachable',
            `No path from the start of the ${stageTitle(at)} reaches this ${stepLabel(graph, id)} step; connect it or delete it.`,
            { ...base(at), stepId: id },
          ),
        );
      }
    }
  }
  for (const edge of backEdges) {
    found.push(
      violation(
        'graph.cycle',
        `This step leads back to an earlier step (${edge.target}), making a loop; point it to a later step or end the path.`,
        exitParts(at, edge.source, edge.slot),
      ),
    );
  }

  const forwardInto = (id: string): StageEdge[] =>
    (graph.preds.get(id) ?? []).filter((e) => reached.has(e.source) && !backEdgeKeys.has(edgeKey(e)));
  for (const id of order) {
    if (graph.steps[id]?.type !== 'Merge' && forwardInto(id).length > 1) {
      found.push(
        violation(
          'graph.rejoin_without_merge',
          `Several paths lead into this ${stepLabel(graph, id)} step; paths that come back together must meet in a Merge step.`,
          { ...base(at), stepId: id },
        ),
      );
    }
  }
  found.push(...checkLayers(at, graph, order, forwardInto));
  return { violations: found, structure: { graph, root, reached } };
}

function stepLabel(graph: StageGraph, id: string): string {
  const step = graph.steps[id];
  return step ? stepKinds[step.type].label.toLowerCase() : 'unknown';
}

function checkTarget(
  at: StageAt,
  id: string,
  exit: StepExit,
  graph: StageGraph,
  stageOfStep: ReadonlyMap<string, number>,
): Violation[] {
  const target = exit.target;
  if (target === null || Object.hasOwn(graph.steps, target)) return [];
  const otherStage = stageOfStep.get(target);
  if (otherStage !== undefined) {
    return [
      violation(
        'step.next_other_stage',
        `This step leads to a step of stage ${otherStage + 1}; steps lead only to steps of their own stage (profiles change stage at the milestone).`,
        exitParts(at, id, exit.slot),
      ),
    ];
  }
  return [
    violation(
      'step.next_unknown',
      `This step leads to step ${target}, which does not exist; point it to a step of this stage or end the path.`,
      exitParts(at, id, exit.slot),
    ),
  ];
}

/** Counts decision points and A/B tests before each step along the deepest path from the root. */
function checkLayers(
  at: StageAt,
  graph: StageGraph,
  order: ReadonlyArray<string>,
  forwardInto: (id: string) => StageEdge[],
): Violation[] {
  const found: Violation[] = [];
  const before = new Map<string, { decision: number; ab: number }>();
  for (const id of order) {
    let decision = 0;
    let ab = 0;
    for (const edge of forwardInto(id)) {
      const prior = before.get(edge.source) ?? { decision: 0, ab: 0 };
      const sourceType = graph.steps[edge.source]?.type;
      decision = Math.max(decision, prior.decision + (sourceType === 'DecisionPoint' ? 1 : 0));
      ab = Math.max(ab, prior.ab + (sourceType === 'ABTest' ? 1 : 0));
    }
    before.set(id, { decision, ab });
    const type = graph.steps[id]?.type;
    if (type === 'DecisionPoint' && decision >= MAX_DECISION_LAYERS) {
      found.push(
        violation(
          'stage.decision_layers',
          `This decision point is the ${ordinal(decision + 1)} on one path through the ${stageTitle(at)}; a stage allows at most ${MAX_DECISION_LAYERS} layers of decision points on any path.`,
          { ...base(at), stepId: id },
        ),
      );
    }
    if (type === 'ABTest' && ab >= MAX_AB_LAYERS) {
      found.push(
        violation(
          'stage.ab_layers',
          `This A/B test is the ${ordinal(ab + 1)} on one path through the ${stageTitle(at)}; a stage allows at most ${MAX_AB_LAYERS} layers of A/B tests on any path.`,
          { ...base(at), stepId: id },
        ),
      );
    }
  }
  return found;
}
