import type { ElkNode } from 'elkjs/lib/elk-api';
import type { JourneyFlow, JourneyNode, StageNode } from './flow';
import { isStepNode } from './flow';
import { exitHandleTop, LANE_GAP, LANE_HEADER, LANE_PADDING, sizeOf } from './sizes';

/**
 * Automatic layout with ELK "layered", left to right, one stage (lane) at a time. Ports are fixed at the
 * node's handles so a decision point's paths and an A/B test's variants keep their order top to bottom.
 * A stage whose structure did not change keeps its positions (cache by signature), so editing one step's
 * settings never moves anything, and editing one stage never moves the steps of another.
 */

interface Elk {
  layout(graph: ElkNode): Promise<ElkNode>;
}

let elkInstance: Promise<Elk> | null = null;

/**
 * In the browser ELK runs in a Web Worker, so laying out a large journey never blocks dragging or typing;
 * where there are no workers (the unit tests under Node) it runs in-process.
 */
function elk(): Promise<Elk> {
  if (!elkInstance) {
    elkInstance =
      typeof Worker === 'undefined'
        ? import('elkjs/lib/elk.bundled.js').then((m) => new m.default())
        : Promise.all([import('elkjs/lib/elk-api.js'), import('elkjs/lib/elk-worker.min.js?url')]).then(
            ([api, url]) => new api.default({ workerUrl: url.default }),
          );
  }
  return elkInstance;
}

/**
 * ELK's first run is several times slower than the next ones (its code is compiled on first use). The
 * editor chunk warms it up as soon as it loads, while the journey is still being fetched.
 */
export async function warmUpLayout(): Promise<unknown> {
  return (await elk()).layout({
    id: 'warm-up',
    layoutOptions: OPTIONS,
    children: [
      { id: 'a', width: 10, height: 10 },
      { id: 'b', width: 10, height: 10 },
      { id: 'c', width: 10, height: 10 },
    ],
    edges: [
      { id: 'ab', sources: ['a'], targets: ['b'] },
      { id: 'ac', sources: ['a'], targets: ['c'] },
    ],
  });
}

// Crossing minimisation is off: the model order (step map order, exits in path order) already is the
// order wanted, and skipping that phase roughly halves ELK's time on large stages.
const OPTIONS = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.spacing.nodeNode': '28',
  'elk.layered.spacing.nodeNodeBetweenLayers': '64',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.layered.crossingMinimization.strategy': 'NONE',
  'elk.layered.layering.strategy': 'LONGEST_PATH_SOURCE',
  'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
};

interface StageLayout {
  positions: Map<string, { x: number; y: number }>;
  width: number;
  height: number;
}

export type LayoutCache = Map<string, StageLayout>;

export function createLayoutCache(): LayoutCache {
  return new Map();
}

function elkNode(node: JourneyNode): ElkNode {
  const { width, height } = sizeOf(node);
  const ports: NonNullable<ElkNode['ports']> = [];
  if (node.type !== 'start') ports.push({ id: `${node.id}::in`, x: 0, y: height / 2, width: 1, height: 1 });
  if (node.type === 'start') ports.push({ id: `${node.id}::start`, x: width, y: height / 2, width: 1, height: 1 });
  if (isStepNode(node)) {
    const many = node.data.exits.length > 1;
    node.data.exits.forEach((exit, index) => {
      ports.push({
        id: `${node.id}::${exit.handle}`,
        x: width,
        y: many ? exitHandleTop(index) : height / 2,
        width: 1,
        height: 1,
      });
    });
  }
  return { id: node.id, width, height, ports, layoutOptions: { 'elk.portConstraints': 'FIXED_POS' } };
}

function signature(members: JourneyNode[], edges: JourneyFlow['edges']): string {
  const nodePart = members.map((n) => `${n.id}:${n.type}:${isStepNode(n) ? n.data.exits.length : 0}`).join('|');
  const edgePart = edges.map((e) => `${e.source}>${e.sourceHandle ?? ''}>${e.target}`).join('|');
  return `${nodePart}#${edgePart}`;
}

async function layoutStage(members: JourneyNode[], edges: JourneyFlow['edges']): Promise<StageLayout> {
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: OPTIONS,
    children: members.map(elkNode),
    edges: edges.map((e) => ({
      id: e.id,
      sources: [`${e.source}::${e.sourceHandle ?? 'start'}`],
      targets: [`${e.target}::in`],
    })),
  };
  const laid = await (await elk()).layout(graph);
  const positions = new Map<string, { x: number; y: number }>();
  for (const child of laid.children ?? []) positions.set(child.id, { x: child.x ?? 0, y: child.y ?? 0 });
  return { positions, width: laid.width ?? 0, height: laid.height ?? 0 };
}

/** Places every node; lanes stack top to bottom in stage order and share one width. */
export async function layoutFlow(flow: JourneyFlow, cache: LayoutCache = createLayoutCache()): Promise<JourneyFlow> {
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
      layout = await layoutStage(members, edges);
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

if (typeof window !== 'undefined') void warmUpLayout();
