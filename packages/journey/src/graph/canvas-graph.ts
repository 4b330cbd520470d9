import { GraphOperationError } from '../errors';
import type { Stage } from '../journey';
import type { ExitHandle } from '../steps/kind';
import type { Step, StepType } from '../steps/registry';
import { stepExits, withExitTarget } from '../steps/registry';

/**
 * A canvas-neutral view of one stage: a node per step and an edge per connected outgoing edge. Node
 * `data` is the step with every outgoing edge cleared, so edges are the only source of connections.
 * Handles are stable per branch and variant (`branch:<id>`, `variant:<id>`, `next`); nodes keep the
 * step map's order and edges follow node order, then branch/variant order. No positions: the canvas lays out.
 */
export interface GraphNode {
  id: string;
  type: StepType;
  data: Step;
}

export interface GraphEdge {
  id: string;
  source: string;
  sourceHandle: ExitHandle;
  target: string;
}

export interface StageGraphView {
  rootStep: string | null;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export function edgeId(source: string, handle: ExitHandle): string {
  return `${source}:${handle}`;
}

function cleared(step: Step): Step {
  let out = step;
  for (const exit of stepExits(step)) if (exit.target !== null) out = withExitTarget(out, exit.slot, null);
  return out;
}

export function toGraph(stage: Pick<Stage, 'steps' | 'rootStep'>): StageGraphView {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const [id, step] of Object.entries(stage.steps ?? {})) {
    nodes.push({ id, type: step.type, data: cleared(step) });
    for (const exit of stepExits(step)) {
      if (exit.target === null) continue;
      edges.push({ id: edgeId(id, exit.handle), source: id, sourceHandle: exit.handle, target: exit.target });
    }
  }
  return { rootStep: stage.rootStep, nodes, edges };
}

/** The inverse of `toGraph`: steps (in node order) and rootStep; targets come from the edges only. */
export function fromGraph(graph: StageGraphView): Pick<Stage, 'steps' | 'rootStep'> {
  const steps: Record<string, Step> = {};
  for (const node of graph.nodes) steps[node.id] = cleared(node.data);
  for (const edge of graph.edges) {
    const source = steps[edge.source];
    const exit = source ? stepExits(source).find((e) => e.handle === edge.sourceHandle) : undefined;
    if (!source || !exit) {
      throw new GraphOperationError(
        'graph.edge_unknown',
        `Edge ${edge.id} leaves from ${edge.source} by "${edge.sourceHandle}", which no step has.`,
      );
    }
    steps[edge.source] = withExitTarget(source, exit.slot, edge.target);
  }
  const empty = graph.nodes.length === 0;
  return { steps: empty ? null : steps, rootStep: graph.rootStep };
}
