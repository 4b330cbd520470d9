/**
 * Layout of one stage's graph, left to right, in plain TypeScript (decision 0013).
 *
 * Journey graphs are nearly series–parallel: splits (decision points, A/B tests) whose paths end or rejoin
 * at a merge. So:
 * - columns: a node's column is its longest path from the stage start (a merge sits right of every path
 *   that reaches it); a column is as wide as its widest node;
 * - rows: the dominator tree decides nesting. A node's "branches" are the successors only it leads to, in
 *   exit order (so paths and variants keep their order top to bottom); the nodes it dominates that others
 *   reach too (a merge) are placed after its branches, level with it when they lie wholly to the right of
 *   the branches, otherwise below them. A node sits midway between its first and last branch, so a chain
 *   is a straight line.
 * Nodes of one column never overlap: sibling blocks are stacked, and blocks sharing rows are in disjoint
 * columns. The result depends only on the structure, so editing a step's settings never moves anything.
 */

export interface LayoutInput {
  /** Node ids in model order (the stage start first). */
  ids: readonly string[];
  size(id: string): { width: number; height: number };
  /** Each node's successors, in exit order. */
  next(id: string): readonly string[];
}

export interface LayoutResult {
  positions: Map<string, { x: number; y: number }>;
  width: number;
  height: number;
}

export const COLUMN_GAP = 64;
const ROW_GAP = 28;

interface Graph {
  ids: string[];
  out: Map<string, string[]>;
  preds: Map<string, string[]>;
}

/** Successor lists without repeats or edges leaving the stage, and without the edges that close a cycle. */
function acyclic(input: LayoutInput): { graph: Graph; order: string[]; roots: string[] } {
  const known = new Set(input.ids);
  const succ = new Map<string, string[]>();
  for (const id of input.ids) succ.set(id, [...new Set(input.next(id).filter((t) => known.has(t) && t !== id))]);
  const hasPred = new Set<string>();
  for (const targets of succ.values()) for (const t of targets) hasPred.add(t);
  const starts = input.ids.filter((id) => !hasPred.has(id));
  const state = new Map<string, 'open' | 'done'>();
  const out = new Map<string, string[]>(input.ids.map((id) => [id, []]));
  const postorder: string[] = [];
  const roots: string[] = [];
  const visit = (root: string) => {
    // Iterative depth-first search: deep chains must not exhaust the call stack.
    const stack: Array<{ id: string; i: number }> = [{ id: root, i: 0 }];
    state.set(root, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { id: string; i: number };
      const targets = succ.get(top.id) as string[];
      if (top.i < targets.length) {
        const t = targets[top.i++] as string;
        const seen = state.get(t);
        if (seen === 'open') continue; // closes a cycle: drawn, but not used for placing
        (out.get(top.id) as string[]).push(t);
        if (!seen) {
          state.set(t, 'open');
          stack.push({ id: t, i: 0 });
        }
      } else {
        state.set(top.id, 'done');
        postorder.push(top.id);
        stack.pop();
      }
    }
  };
  for (const id of [...starts, ...input.ids]) {
    if (state.has(id)) continue;
    roots.push(id);
    visit(id);
  }
  const preds = new Map<string, string[]>(input.ids.map((id) => [id, []]));
  for (const [from, targets] of out) for (const t of targets) (preds.get(t) as string[]).push(from);
  return { graph: { ids: [...input.ids], out, preds }, order: postorder.reverse(), roots };
}

const ROOT = '\u0000root';

/** Immediate dominators (Cooper, Harvey and Kennedy's iteration) from one virtual root above every root. */
function dominators(graph: Graph, order: string[], roots: string[]): Map<string, string> {
  const rank = new Map<string, number>([[ROOT, 0], ...order.map((id, i): [string, number] => [id, i + 1])]);
  const idom = new Map<string, string>([[ROOT, ROOT]]);
  const rootSet = new Set(roots);
  const predsOf = (id: string) =>
    rootSet.has(id) ? [ROOT, ...(graph.preds.get(id) ?? [])] : (graph.preds.get(id) ?? []);
  const intersect = (a: string, b: string) => {
    let x = a;
    let y = b;
    while (x !== y) {
      while ((rank.get(x) as number) > (rank.get(y) as number)) x = idom.get(x) as string;
      while ((rank.get(y) as number) > (rank.get(x) as number)) y = idom.get(y) as string;
    }
    return x;
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of order) {
      let best: string | null = null;
      for (const p of predsOf(id)) {
        if (!idom.has(p)) continue;
        best = best === null ? p : intersect(p, best);
      }
      if (best !== null && idom.get(id) !== best) {
        idom.set(id, best);
        changed = true;
      }
    }
  }
  return idom;
}

interface Block {
  height: number;
  /** Offset of the node's centre from the block's top. */
  anchor: number;
  /** Column span of the block. */
  minColumn: number;
  maxColumn: number;
  /** Block tops of the children, relative to this block's top. */
  children: Array<{ id: string; top: number }>;
}

export function layoutStageGraph(input: LayoutInput): LayoutResult {
  const { graph, order, roots } = acyclic(input);
  const column = new Map<string, number>();
  for (const id of order) {
    const before = graph.preds.get(id) as string[];
    column.set(id, before.length === 0 ? 0 : Math.max(...before.map((p) => (column.get(p) as number) + 1)));
  }
  const idom = dominators(graph, order, roots);
  const kids = new Map<string, string[]>([[ROOT, []]]);
  for (const id of order) kids.set(id, []);
  for (const id of order) (kids.get(idom.get(id) as string) as string[]).push(id);
  const rank = new Map(order.map((id, i) => [id, i]));

  const blocks = new Map<string, Block>();
  const stack = (
    members: string[],
  ): { tops: Array<{ id: string; top: number }>; height: number; first: number; last: number } => {
    let y = 0;
    const tops: Array<{ id: string; top: number }> = [];
    for (const m of members) {
      tops.push({ id: m, top: y });
      y += (blocks.get(m) as Block).height + ROW_GAP;
    }
    const firstTop = tops[0];
    const lastTop = tops[tops.length - 1];
    return {
      tops,
      height: Math.max(0, y - ROW_GAP),
      first: firstTop ? firstTop.top + (blocks.get(firstTop.id) as Block).anchor : 0,
      last: lastTop ? lastTop.top + (blocks.get(lastTop.id) as Block).anchor : 0,
    };
  };
  const span = (members: string[]) => ({
    min: Math.min(...members.map((m) => (blocks.get(m) as Block).minColumn)),
    max: Math.max(...members.map((m) => (blocks.get(m) as Block).maxColumn)),
  });

  // Children before parents: reverse order of the topological order is a post-order of the dominator tree.
  for (const id of [...order].reverse()) {
    const own = input.size(id).height;
    const children = kids.get(id) as string[];
    const single = (c: string) => (graph.preds.get(c) as string[]).length === 1;
    const branches = (graph.out.get(id) as string[]).filter((c) => idom.get(c) === id && single(c));
    const chosen = new Set(branches);
    const joins = children
      .filter((c) => !chosen.has(c))
      .sort(
        (a, b) =>
          (column.get(a) as number) - (column.get(b) as number) || (rank.get(a) as number) - (rank.get(b) as number),
      );
    const b = stack(branches);
    const branchSpan = branches.length > 0 ? span(branches) : null;
    const beside = joins.filter((j) => branchSpan === null || (blocks.get(j) as Block).minColumn > branchSpan.max);
    const below = joins.filter((j) => !beside.includes(j));
    const j = stack(beside);
    // Relative to the node's centre (0): branches centred on it, joins level with it.
    const centre = branches.length > 0 ? (b.first + b.last) / 2 : 0;
    const joinCentre = beside.length > 0 ? (j.first + j.last) / 2 : 0;
    const placed: Array<{ id: string; top: number }> = [
      ...b.tops.map((t) => ({ id: t.id, top: t.top - centre })),
      ...j.tops.map((t) => ({ id: t.id, top: t.top - joinCentre })),
    ];
    let top = -own / 2;
    let bottom = own / 2;
    for (const p of placed) {
      top = Math.min(top, p.top);
      bottom = Math.max(bottom, p.top + (blocks.get(p.id) as Block).height);
    }
    for (const k of below) {
      placed.push({ id: k, top: bottom + ROW_GAP });
      bottom += ROW_GAP + (blocks.get(k) as Block).height;
    }
    const all = placed.map((p) => p.id);
    const s = all.length > 0 ? span(all) : null;
    const col = column.get(id) as number;
    blocks.set(id, {
      height: bottom - top,
      anchor: -top,
      minColumn: Math.min(col, s?.min ?? col),
      maxColumn: Math.max(col, s?.max ?? col),
      children: placed.map((p) => ({ id: p.id, top: p.top - top })),
    });
  }

  // Columns: as wide as their widest node.
  const columnWidth: number[] = [];
  for (const id of order) {
    const c = column.get(id) as number;
    columnWidth[c] = Math.max(columnWidth[c] ?? 0, input.size(id).width);
  }
  const columnX: number[] = [];
  let x = 0;
  for (let c = 0; c < columnWidth.length; c++) {
    columnX[c] = x;
    x += (columnWidth[c] ?? 0) + COLUMN_GAP;
  }

  const positions = new Map<string, { x: number; y: number }>();
  const place = (id: string, blockTop: number) => {
    const block = blocks.get(id) as Block;
    positions.set(id, {
      x: columnX[column.get(id) as number] as number,
      y: blockTop + block.anchor - input.size(id).height / 2,
    });
    for (const child of block.children) place(child.id, blockTop + child.top);
  };
  // Each root (the stage start first) with what it dominates, then what only several roots reach, below.
  const rootRank = new Map(roots.map((id, i) => [id, i]));
  const topLevel = [...(kids.get(ROOT) as string[])].sort(
    (a, b) => (rootRank.get(a) ?? roots.length) - (rootRank.get(b) ?? roots.length),
  );
  let y = 0;
  for (const id of topLevel) {
    place(id, y);
    y += (blocks.get(id) as Block).height + ROW_GAP;
  }
  let width = 0;
  let height = 0;
  for (const [id, at] of positions) {
    const size = input.size(id);
    width = Math.max(width, at.x + size.width);
    height = Math.max(height, at.y + size.height);
  }
  return { positions, width, height };
}
