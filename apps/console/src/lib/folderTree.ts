import type { FolderEntry } from '@svc/contracts';

/**
 * The one folder tree of the console (the journeys list and a parent segment's folders), built from by-folder
 * listings: one tree per parent segment, whose root folder is named after the parent segment and whose
 * sub-folders nest by their parent folder id, each with the segments filed in it.
 */

export interface FolderNode {
  id: string;
  name: string;
  /** The parent segment the folder belongs to. */
  audienceId: string;
  /** Null for a parent segment's root folder. */
  parentId: string | null;
  /** 0 for a root folder. */
  depth: number;
  children: FolderNode[];
  /** The segments filed in this folder, sorted by name. */
  segments: { id: string; name: string }[];
}

/** A parent segment's root folder and what `GET /entities/by-folder/:root?depth=32` listed under it. */
export interface FolderTreeSource {
  audienceId: string;
  name: string;
  rootFolderId: string;
  entries: ReadonlyArray<FolderEntry>;
}

const byName = (a: { id: string; name: string }, b: { id: string; name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }) || a.id.localeCompare(b.id);

/**
 * Nests the folders of each listing under their parent, children sorted by name. A folder whose parent is
 * not in the listing (deeper than the listing reaches, or a parent deleted meanwhile) is shown under the
 * root rather than lost.
 */
export function buildFolderTree(sources: ReadonlyArray<FolderTreeSource>): FolderNode[] {
  return sources.map((source) => {
    const root: FolderNode = {
      id: source.rootFolderId,
      name: source.name,
      audienceId: source.audienceId,
      parentId: null,
      depth: 0,
      children: [],
      segments: [],
    };
    const nodes = new Map<string, FolderNode>([[root.id, root]]);
    const parentOf = new Map<string, string>();
    for (const entry of source.entries) {
      if (entry.type !== 'folder-segment' || nodes.has(entry.id)) continue;
      nodes.set(entry.id, {
        id: entry.id,
        name: String(entry.attributes.name ?? entry.id),
        audienceId: source.audienceId,
        parentId: null,
        depth: 0,
        children: [],
        segments: [],
      });
      parentOf.set(entry.id, entry.relationships.parentFolder.data.id);
    }
    const placed = new Map<string, string>();
    for (const [id, parentId] of parentOf) {
      const node = nodes.get(id) as FolderNode;
      const parent = nodes.has(parentId) && !isAncestorOrSelf(id, parentId, placed) ? parentId : root.id;
      placed.set(id, parent);
      node.parentId = parent;
      (nodes.get(parent) as FolderNode).children.push(node);
    }
    // A segment whose folder is not in the listing is shown in the root, like such folders.
    for (const entry of source.entries) {
      if (entry.type !== 'segment') continue;
      const folder = nodes.get(entry.relationships.parentFolder.data.id) ?? root;
      folder.segments.push({ id: entry.id, name: String(entry.attributes.name ?? `#${entry.id}`) });
    }
    const settle = (node: FolderNode, depth: number) => {
      node.depth = depth;
      node.children.sort(byName);
      node.segments.sort(byName);
      for (const child of node.children) settle(child, depth + 1);
    };
    settle(root, 0);
    return root;
  });
}

/** One parent segment's tree: its root folder named after it, with what its by-folder listing holds. */
export function treeOf(
  parentSegment: { id: string; name: string; rootFolderId: string },
  entries: ReadonlyArray<FolderEntry>,
): FolderNode {
  const [root] = buildFolderTree([
    { audienceId: parentSegment.id, name: parentSegment.name, rootFolderId: parentSegment.rootFolderId, entries },
  ]);
  return root as FolderNode;
}

/** Whether `id` is `candidate` or above it in the tree placed so far: a cycle the tree must not make. */
function isAncestorOrSelf(id: string, candidate: string, parentOf: ReadonlyMap<string, string>): boolean {
  const seen = new Set<string>();
  for (let at: string | undefined = candidate; at !== undefined && !seen.has(at); at = parentOf.get(at)) {
    if (at === id) return true;
    seen.add(at);
  }
  return false;
}

/** The folder with this id and the folders above it, root first; empty when there is none. */
export function folderPath(tree: ReadonlyArray<FolderNode>, id: string): FolderNode[] {
  for (const root of tree) {
    const path = pathFrom(root, id);
    if (path) return path;
  }
  return [];
}

function pathFrom(node: FolderNode, id: string): FolderNode[] | null {
  if (node.id === id) return [node];
  for (const child of node.children) {
    const below = pathFrom(child, id);
    if (below) return [node, ...below];
  }
  return null;
}

/** The ids of a folder and of every folder below it: where "journeys in this folder" come from. */
export function folderAndBelow(node: FolderNode): Set<string> {
  const ids = new Set<string>();
  const visit = (n: FolderNode) => {
    ids.add(n.id);
    for (const child of n.children) visit(child);
  };
  visit(node);
  return ids;
}
