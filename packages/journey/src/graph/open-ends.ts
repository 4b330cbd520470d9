import type { Stage } from '../journey';
import type { ExitSlot } from '../steps/kind';
import { stageGraph, walk } from './stage-graph';

/** An outgoing edge that leads nowhere yet: the end of an open path. */
export interface OpenEnd {
  stepId: string;
  slot: ExitSlot;
  /** The edge's label (Next, or the branch or variant name). */
  label: string;
}

/**
 * The open ends of a stage: edges of the steps reached from its root step whose `next` is null (an End
 * step closes its path, so it has none). A stage without a root step has no open ends: it is empty.
 */
export function openEnds(stage: Stage): OpenEnd[] {
  if (!stage.rootStep) return [];
  const graph = stageGraph(stage);
  const out: OpenEnd[] = [];
  for (const id of walk(graph, [stage.rootStep]).order) {
    for (const exit of graph.exits.get(id) ?? []) {
      if (exit.target === null) out.push({ stepId: id, slot: exit.slot, label: exit.label });
    }
  }
  return out;
}
