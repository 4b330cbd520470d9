import type { JourneyFlow, JourneyNode, StageNode } from './flow';
import { isStepNode } from './flow';
import { LANE_GAP, LANE_HEADER, LANE_PADDING, sizeOf } from './sizes';
import { layoutStageGraph } from './stageLayout';

/**
 * Automatic layout, one stage (lane) at a time, left to right (`stageLayout.ts`, decision 0013). A decision
 * point's paths and an A/B test's variants keep their order top to bottom. A stage whose structure did not
 * change keeps its positions (cache by signature), so editing one step's settings never moves anything,
 * and editing one stage never moves the steps of another.
 */

interface StageLayout {
  positions: Map<string, { x: number; y: number }>;
  width: number;
  height: number;
}

export type LayoutCache = Map<string, StageLayout>;

export function createLayoutCache(): LayoutCache {
  return new Map();
}

function signature(members: JourneyNode[], edges: JourneyFlow['edges']): string {
  const nodePart = members.map((n) => `${n.id}:${n.type}:${isStepNode(n) ? n.data.exits.length : 0}`).join('|');
  const edgePart = edges.map((e) => `${e.source}>${e.sourceHandle ?? ''}>${e.target}`).join('|');
  return `${nodePart}#${edgePart}`;
}

function layoutStage(members: JourneyNode[], edges: JourneyFlow['edges']): StageLayout {
  const byId = new Map(members.map((n) => [n.id, n]));
  const exitIndex = (e: JourneyFlow['edges'][number]) => {
    const source = byId.get(e.source);
    if (!source || !isStepNode(source)) return 0;
    return source.data.exits.findIndex((x) => x.handle === e.sourceHandle);
  };
  const next = new Map<string, string[]>();
  for (const e of [...edges].sort((a, b) => exitIndex(a) - exitIndex(b))) {
    next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  }
  return layoutStageGraph({
    ids: members.map((n) => n.id),
    size: (id) => sizeOf(byId.get(id) as JourneyNode),
    next: (id) => next.get(id) ?? [],
  });
}

/** Places every node; lanes stack top to bottom in stage order and share one width. */
export function layoutFlow(flow: JourneyFlow, cache: LayoutCache = createLayoutCache()): JourneyFlow {
  const lanes = flow.nodes.filter((n): n is StageNode => n.type === 'stage');
  const layouts = new Map<string, StageLayout>();
  const used = new Set<string>();
  for (const lane of lanes) {
    const members = flow.nodes.filter((n) => n.parentId === lane.id);
    const ids = new Set(members.map((n) => n.id));
    const edges = flow.edges.filter((e) => ids.has(e.source));
    const key = signature(members, edges);
    used.add(key);
    let layout = cache.get(key);
    if (!layout) {
      layout = layoutStage(members, edges);
      cache.set(key, layout);
    }
    layouts.set(lane.id, layout);
  }
  for (const key of [...cache.keys()]) if (!used.has(key)) cache.delete(key);
  const width = Math.max(900, ...[...layouts.values()].map((l) => l.width)) + 2 * LANE_PADDING;
  let y = 0;
  const lanePlace = new Map<string, { y: number; height: number }>();
  for (const lane of lanes) {
    const layout = layouts.get(lane.id) as StageLayout;
    const height = layout.height + LANE_HEADER + 2 * LANE_PADDING;
    lanePlace.set(lane.id, { y, height });
    y += height + LANE_GAP;
  }
  const nodes = flow.nodes.map((node): JourneyNode => {
    if (node.type === 'stage') {
      const place = lanePlace.get(node.id) as { y: number; height: number };
      return {
        ...node,
        position: { x: 0, y: place.y },
        width: width,
        height: place.height,
        selectable: false,
        draggable: false,
        focusable: false,
      };
    }
    const layout = node.parentId ? layouts.get(node.parentId) : undefined;
    const at = layout?.positions.get(node.id) ?? { x: 0, y: 0 };
    const { width: w, height: h } = sizeOf(node);
    return { ...node, position: { x: at.x + LANE_PADDING, y: at.y + LANE_HEADER + LANE_PADDING }, width: w, height: h };
  });
  return { nodes, edges: flow.edges };
}
