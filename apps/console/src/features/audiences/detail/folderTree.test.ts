import type { FolderEntry } from '@svc/contracts';
import { describe, expect, it } from 'vitest';
import { folderTree } from './folderTree';

const entry = (id: string, type: string, name: string, parent: string): FolderEntry => ({
  id,
  type,
  attributes: { name },
  relationships: { parentFolder: { data: { id: parent, type: 'folder-segment' } } },
});

describe('folderTree', () => {
  it('nests folders and segments under their parents, sorted by name, leaving other kinds out', () => {
    const tree = folderTree('1', 'Root', [
      entry('3', 'folder-segment', 'Winter', '1'),
      entry('2', 'folder-segment', 'Autumn', '1'),
      entry('4', 'folder-segment', 'Deep', '3'),
      entry('10', 'segment', 'Buyers', '4'),
      entry('11', 'segment', 'All', '1'),
      entry('12', 'journey', 'Welcome', '1'),
    ]);
    expect(tree.folders.map((f) => f.name)).toEqual(['Autumn', 'Winter']);
    expect(tree.segments).toEqual([{ id: '11', name: 'All' }]);
    expect(tree.folders[1]?.folders[0]?.segments).toEqual([{ id: '10', name: 'Buyers' }]);
  });
});
