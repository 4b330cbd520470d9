import type { DraftGroup, DraftNode } from './draft';

/** Replaces the node with `key` (anywhere in the tree, behavior filters included) by `fn(node)`. */
export function updateNode(group: DraftGroup, key: string, fn: (node: DraftNode) => DraftNode): DraftGroup {
  if (group.key === key) return fn(group) as DraftGroup;
  return { ...group, conditions: group.conditions.map((c) => updateIn(c, key, fn)) };
}

function updateIn(node: DraftNode, key: string, fn: (node: DraftNode) => DraftNode): DraftNode {
  if (node.key === key) return fn(node);
  if (node.type === 'And' || node.type === 'Or') return updateNode(node, key, fn);
  if (node.type === 'Behavior') return { ...node, filter: updateNode(node.filter, key, fn) };
  return node;
}

/** The tree without the node with `key`. */
export function removeNode(group: DraftGroup, key: string): DraftGroup {
  return {
    ...group,
    conditions: group.conditions
      .filter((c) => c.key !== key)
      .map((c) => {
        if (c.type === 'And' || c.type === 'Or') return removeNode(c, key);
        if (c.type === 'Behavior') return { ...c, filter: removeNode(c.filter, key) };
        return c;
      }),
  };
}

/** Adds `node` at the end of the group with `groupKey`. */
export function appendTo(group: DraftGroup, groupKey: string, node: DraftNode): DraftGroup {
  return updateNode(group, groupKey, (g) => ({
    ...(g as DraftGroup),
    conditions: [...(g as DraftGroup).conditions, node],
  }));
}
