import type { JourneyEdge, JourneyNode } from './flow';

/** Equal values, or plain objects whose own values are `===` (one level down). */
function shallowSame(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k]);
}

/**
 * Node data is the same when each field is the same object, or (for a stage's attributes, rebuilt on every
 * change of the stage) an object of the same values. Step data is reused by reference by `journeyToFlow`
 * while its step is unchanged, so no node needs a deep (JSON) comparison.
 */
function sameData(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => shallowSame(a[k], b[k]));
}

/** Keeps node objects that did not change, so React Flow re-renders only what did. */
export function reconcileNodes(previous: JourneyNode[], next: JourneyNode[]): JourneyNode[] {
  if (previous.length === 0) return next;
  const byId = new Map(previous.map((n) => [n.id, n]));
  return next.map((node) => {
    const old = byId.get(node.id);
    if (
      old &&
      old.type === node.type &&
      old.parentId === node.parentId &&
      old.ariaLabel === node.ariaLabel &&
      old.position.x === node.position.x &&
      old.position.y === node.position.y &&
      old.width === node.width &&
      old.height === node.height &&
      sameData(old.data, node.data)
    ) {
      return old;
    }
    return node;
  });
}

/** Keeps edge objects that did not change: each "+" button is a React portal, costly to re-render by hundreds. */
export function reconcileEdges(previous: JourneyEdge[], next: JourneyEdge[]): JourneyEdge[] {
  if (previous.length === 0) return next;
  const byId = new Map(previous.map((e) => [e.id, e]));
  return next.map((edge) => {
    const old = byId.get(edge.id);
    if (
      old &&
      old.source === edge.source &&
      old.target === edge.target &&
      old.sourceHandle === edge.sourceHandle &&
      shallowSame(old.data, edge.data)
    ) {
      return old;
    }
    return edge;
  });
}
