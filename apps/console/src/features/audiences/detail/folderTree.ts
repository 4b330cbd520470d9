import type { FolderEntry } from '@svc/contracts';

export interface FolderNode {
  id: string;
  name: string;
  folders: FolderNode[];
  segments: { id: string; name: string }[];
}

const nameOf = (e: FolderEntry) => (typeof e.attributes.name === 'string' ? e.attributes.name : `#${e.id}`);
const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);

/** The flat by-folder listing as a tree under the root folder (entries of other kinds are left out). */
export function folderTree(rootId: string, rootName: string, entries: FolderEntry[]): FolderNode {
  const nodes = new Map<string, FolderNode>([[rootId, { id: rootId, name: rootName, folders: [], segments: [] }]]);
  for (const e of entries) {
    if (e.type === 'folder-segment') nodes.set(e.id, { id: e.id, name: nameOf(e), folders: [], segments: [] });
  }
  for (const e of entries) {
    const parent = nodes.get(e.relationships.parentFolder.data.id);
    if (!parent) continue;
    if (e.type === 'folder-segment') {
      const node = nodes.get(e.id);
      if (node) parent.folders.push(node);
    } else if (e.type === 'segment') {
      parent.segments.push({ id: e.id, name: nameOf(e) });
    }
  }
  for (const node of nodes.values()) {
    node.folders.sort(byName);
    node.segments.sort(byName);
  }
  return nodes.get(rootId) as FolderNode;
}
