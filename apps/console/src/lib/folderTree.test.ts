import type { FolderEntry } from '@svc/contracts';
import { describe, expect, it } from 'vitest';
import { buildFolderTree, type FolderNode, folderAndBelow, folderPath, treeOf } from './folderTree';

const folder = (id: string, name: string, parent: string): FolderEntry => ({
  id,
  type: 'folder-segment',
  attributes: { name, parentFolderId: parent },
  relationships: { parentFolder: { data: { id: parent, type: 'folder-segment' } } },
});
const journey = (id: string, parent: string): FolderEntry => ({
  id,
  type: 'journey',
  attributes: { name: `Journey ${id}` },
  relationships: { parentFolder: { data: { id: parent, type: 'folder-segment' } } },
});

/** Names as an indented outline: what a person sees in the tree. */
const outline = (nodes: FolderNode[]): string[] =>
  nodes.flatMap((n) => [`${'  '.repeat(n.depth)}${n.name}`, ...outline(n.children)]);

describe('buildFolderTree', () => {
  it('nests sub-folders under their parents, whatever order the listing gives them in', () => {
    const tree = buildFolderTree([
      {
        audienceId: 'a1',
        name: 'Shop customers',
        rootFolderId: '1',
        entries: [
          folder('4', 'Spring', '3'),
          journey('9', '4'),
          folder('3', 'Campaigns', '1'),
          folder('5', 'Win-back', '1'),
        ],
      },
    ]);
    expect(outline(tree)).toEqual(['Shop customers', '  Campaigns', '    Spring', '  Win-back']);
    expect(tree[0]?.children[0]).toMatchObject({ id: '3', parentId: '1', audienceId: 'a1', depth: 1 });
    expect(tree[0]?.children[0]?.children[0]).toMatchObject({ id: '4', parentId: '3', depth: 2 });
  });

  it('makes one tree per parent segment, each rooted at its root folder', () => {
    const tree = buildFolderTree([
      { audienceId: 'a1', name: 'Shop', rootFolderId: '1', entries: [folder('3', 'Campaigns', '1')] },
      { audienceId: 'a2', name: 'App', rootFolderId: '2', entries: [] },
    ]);
    expect(tree.map((root) => [root.id, root.name, root.parentId, root.children.length])).toEqual([
      ['1', 'Shop', null, 1],
      ['2', 'App', null, 0],
    ]);
  });

  it('sorts siblings by name, numbers in numeric order', () => {
    const tree = buildFolderTree([
      {
        audienceId: 'a1',
        name: 'Shop',
        rootFolderId: '1',
        entries: [folder('2', 'week 10', '1'), folder('3', 'Week 2', '1'), folder('4', 'autumn', '1')],
      },
    ]);
    expect(tree[0]?.children.map((c) => c.name)).toEqual(['autumn', 'Week 2', 'week 10']);
  });

  it('keeps a folder whose parent is missing from the listing, under the root', () => {
    const tree = buildFolderTree([
      { audienceId: 'a1', name: 'Shop', rootFolderId: '1', entries: [folder('7', 'Stray', '99')] },
    ]);
    expect(outline(tree)).toEqual(['Shop', '  Stray']);
  });

  it('never loops on folders that name each other as parent', () => {
    const tree = buildFolderTree([
      { audienceId: 'a1', name: 'Shop', rootFolderId: '1', entries: [folder('5', 'A', '6'), folder('6', 'B', '5')] },
    ]);
    expect(outline(tree)).toEqual(['Shop', '  B', '    A']);
  });
});

describe('folderAndBelow and folderPath', () => {
  const tree = buildFolderTree([
    {
      audienceId: 'a1',
      name: 'Shop',
      rootFolderId: '1',
      entries: [
        folder('3', 'Campaigns', '1'),
        folder('4', 'Spring', '3'),
        folder('6', 'Deep', '4'),
        folder('5', 'Other', '1'),
      ],
    },
  ]);
  const campaigns = tree[0]?.children[0] as FolderNode;

  it('gives a folder and all of its sub-folders, not its siblings', () => {
    expect([...folderAndBelow(campaigns)].sort()).toEqual(['3', '4', '6']);
    expect(folderAndBelow(tree[0] as FolderNode).size).toBe(5);
  });

  it('gives the path from the root to a folder, and nothing for an unknown one', () => {
    expect(folderPath(tree, '6').map((f) => f.name)).toEqual(['Shop', 'Campaigns', 'Spring', 'Deep']);
    expect(folderPath(tree, '42')).toEqual([]);
  });
});

describe("treeOf (a parent segment's folders and segments)", () => {
  const entry = (id: string, type: string, name: string, parent: string): FolderEntry => ({
    id,
    type,
    attributes: { name },
    relationships: { parentFolder: { data: { id: parent, type: 'folder-segment' } } },
  });

  it('files segments in their folders, sorted by name, leaving other kinds out; lost ones go to the root', () => {
    const tree = treeOf({ id: '7', name: 'Root', rootFolderId: '1' }, [
      entry('3', 'folder-segment', 'Winter', '1'),
      entry('2', 'folder-segment', 'Autumn', '1'),
      entry('4', 'folder-segment', 'Deep', '3'),
      entry('10', 'segment', 'Buyers', '4'),
      entry('11', 'segment', 'All', '1'),
      entry('13', 'segment', 'Zebra', '99'),
      entry('12', 'journey', 'Welcome', '1'),
    ]);
    expect(tree.name).toBe('Root');
    expect(tree.children.map((f) => f.name)).toEqual(['Autumn', 'Winter']);
    expect(tree.segments).toEqual([
      { id: '11', name: 'All' },
      { id: '13', name: 'Zebra' },
    ]);
    expect(tree.children[1]?.children[0]?.segments).toEqual([{ id: '10', name: 'Buyers' }]);
    expect(tree.children[0]?.segments).toEqual([]);
  });
});
