import type { Stage } from '../journey';
import type { ExitHandle, ExitSlot, StepExit } from '../steps/kind';
import type { Step } from '../steps/registry';
import { stepExits } from '../steps/registry';

/** An outgoing edge between two steps of the same stage. */
export interface StageEdge {
  source: string;
  slot: ExitSlot;
  handle: ExitHandle;
  target: string;
}

/** A read-only index of one stage's steps and edges; edges to steps outside the stage are left out. */
export interface StageGraph {
  ids: string[];
  steps: Readonly<Record<string, Step>>;
  exits: ReadonlyMap<string, StepExit[]>;
  edges: StageEdge[];
  preds: ReadonlyMap<string, StageEdge[]>;
}

export function edgeKey(edge: { source: string; handle: string }): string {
  return `${edge.source}\u0000${edge.handle}`;
}

export function stageGraph(stage: Stage): StageGraph {
  const steps = stage.steps ?? {};
  const ids = Object.keys(steps);
  const exits = new Map<string, StepExit[]>();
  const preds = new Map<string, StageEdge[]>(ids.map((id) => [id, []]));
  const edges: StageEdge[] = [];
  for (const id of ids) {
    const out = stepExits(steps[id] as Step);
    exits.set(id, out);
    for (const exit of out) {
      if (exit.target === null || !Object.hasOwn(steps, exit.target)) continue;
      const edge = { source: id, slot: exit.slot, handle: exit.handle, target: exit.target };
      edges.push(edge);
      preds.get(exit.target)?.push(edge);
    }
  }
  return { ids, steps, exits, edges, preds };
}

export function successors(graph: StageGraph, id: string): StageEdge[] {
  const out: StageEdge[] = [];
  for (const exit of graph.exits.get(id) ?? []) {
    if (exit.target !== null && Object.hasOwn(graph.steps, exit.target)) {
      out.push({ source: id, slot: exit.slot, handle: exit.handle, target: exit.target });
    }
  }
  return out;
}

/** Depth-first walk: steps reachable from `start` in topological order, and the edges that close loops. */
export interface Walk {
  order: string[];
  reached: ReadonlySet<string>;
  backEdges: StageEdge[];
  backEdgeKeys: ReadonlySet<string>;
}

export function walk(graph: StageGraph, starts: ReadonlyArray<string>): Walk {
  const state = new Map<string, 'open' | 'done'>();
  const postOrder: string[] = [];
  const backEdges: StageEdge[] = [];
  for (const start of starts) {
    if (!Object.hasOwn(graph.steps, start) || state.has(start)) continue;
    // Iterative so that long chains of steps cannot overflow the call stack.
    const stack: Array<{ id: string; out: StageEdge[]; next: number }> = [];
    state.set(start, 'open');
    stack.push({ id: start, out: successors(graph, start), next: 0 });
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const edge = frame.out[frame.next++];
      if (!edge) {
        state.set(frame.id, 'done');
        postOrder.push(frame.id);
        stack.pop();
        continue;
      }
      const seen = state.get(edge.target);
      if (seen === 'open') backEdges.push(edge);
      else if (seen === undefined) {
        state.set(edge.target, 'open');
        stack.push({ id: edge.target, out: successors(graph, edge.target), next: 0 });
      }
    }
  }
  const order = postOrder.reverse();
  return { order, reached: new Set(order), backEdges, backEdgeKeys: new Set(backEdges.map(edgeKey)) };
}

const EXIT = '\u0000end';

/**
 * The nearest step that every path leaving `start` passes through (its immediate post-dominator),
 * or null when the paths only meet at the end of the stage. Loops are ignored.
 */
export function nearestJoin(graph: StageGraph, start: string): string | null {
  const { order, backEdgeKeys } = walk(graph, [start]);
  const pdom = new Map<string, Set<string>>();
  for (const id of [...order].reverse()) {
    const after: Array<Set<string>> = [];
    for (const exit of graph.exits.get(id) ?? []) {
      const isEdge = exit.target !== null && Object.hasOwn(graph.steps, exit.target);
      if (isEdge && backEdgeKeys.has(edgeKey({ source: id, handle: exit.handle }))) continue;
      after.push(isEdge ? (pdom.get(exit.target as string) ?? new Set([EXIT])) : new Set([EXIT]));
    }
    const [first, ...others] = after;
    const own = new Set([...(first ?? [EXIT])].filter((x) => others.every((set) => set.has(x))));
    own.add(id);
    pdom.set(id, own);
  }
  let best: string | null = null;
  let bestSize = -1;
  for (const candidate of pdom.get(start) ?? []) {
    if (candidate === start) continue;
    // Post-dominators form a chain; the nearest one has the most post-dominators of its own.
    const size = candidate === EXIT ? 0 : (pdom.get(candidate)?.size ?? 0);
    if (size > bestSize) {
      best = candidate;
      bestSize = size;
    }
  }
  return best === EXIT ? null : best;
}

/**
 * Steps reached only through `cut` edges: every edge into them is a cut edge or comes from another such
 * step. These are the sub-paths that disappear with the cut edges.
 */
export function exclusiveTo(graph: StageGraph, cut: ReadonlyArray<StageEdge>): Set<string> {
  const cutKeys = new Set(cut.map(edgeKey));
  const { order } = walk(
    graph,
    cut.map((e) => e.target),
  );
  const owned = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of order) {
      if (owned.has(id)) continue;
      const incoming = graph.preds.get(id) ?? [];
      if (incoming.length > 0 && incoming.every((e) => cutKeys.has(edgeKey(e)) || owned.has(e.source))) {
        owned.add(id);
        changed = true;
      }
    }
  }
  return owned;
}
