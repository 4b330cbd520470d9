import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createParentSegment, failure, importRows, type Json, ok } from '../audiences/testing/audiences';
import { createHarness, type Harness } from '../testing/harness';
import { folderRef, registerFolderEntries } from './entries';

/** Folders nest per parent segment and list segments and registered entries (journeys) to a depth. */
describe('folders', () => {
  let h: Harness;
  let audience: Json;
  let root: string;
  const folder = async (name: string, parentFolderId: string) => {
    const created = await ok<{ data: Json }>(h.call('POST', '/entities/folders', { json: { name, parentFolderId } }));
    return created.data.id as string;
  };
  const list = async (id: string, depth?: number) =>
    (
      await ok<{ data: Json[] }>(
        h.call('GET', `/entities/by-folder/${id}${depth === undefined ? '' : `?depth=${depth}`}`),
      )
    ).data.map((e) => `${e.type}:${(e.attributes as Json).name}`);

  beforeAll(async () => {
    h = await createHarness();
    await importRows(h, 'shop', 'customers', [{ customer_id: 1, time: 1 }]);
    audience = await createParentSegment(h, {
      name: 'Customers',
      master: { parentDatabaseName: 'shop', parentTableName: 'customers', parentKey: 'customer_id' },
    });
    root = audience.rootFolderId as string;
    // A journeys-like provider, registered the way the journeys feature does.
    registerFolderEntries(h.deps, 'journey', (_accountId, folderIds) =>
      folderIds.includes(Number(root))
        ? [
            {
              id: '77',
              type: 'journey',
              attributes: { name: 'Welcome' },
              relationships: { parentFolder: folderRef(root) },
            },
          ]
        : [],
    );
  });
  afterAll(() => h.close());

  it('nests folders and lists their content to the given depth', async () => {
    const campaigns = await folder('Campaigns', root);
    const spring = await folder('Spring', campaigns);
    await ok(
      h.call('POST', `/audiences/${audience.id}/segments`, {
        json: { name: 'Spring buyers', folderId: spring, rule: { type: 'And', conditions: [] } },
      }),
    );
    expect(await list(root)).toEqual(['folder-segment:Campaigns', 'journey:Welcome']);
    expect(await list(root, 2)).toEqual(['folder-segment:Campaigns', 'folder-segment:Spring', 'journey:Welcome']);
    expect(await list(root, 3)).toEqual([
      'folder-segment:Campaigns',
      'folder-segment:Spring',
      'segment:Spring buyers',
      'journey:Welcome',
    ]);
    const listing = await ok<{ data: Json[] }>(h.call('GET', `/entities/by-folder/${root}?depth=32`));
    const spot = listing.data.find((e) => e.type === 'segment') as Json;
    expect(spot.relationships).toEqual({ parentFolder: { data: { id: spring, type: 'folder-segment' } } });
  });

  it('refuses a depth above 32 or below 1', async () => {
    expect(await failure(h.call('GET', `/entities/by-folder/${root}?depth=33`), 400)).toContain('1 to 32');
    await failure(h.call('GET', `/entities/by-folder/${root}?depth=0`), 400);
    await failure(h.call('GET', `/entities/by-folder/${root}?depth=two`), 400);
    await ok(h.call('GET', `/entities/by-folder/${root}?depth=32`));
  });

  it('renames and deletes sub-folders, but not roots, taken names or folders with content', async () => {
    const a = await folder('A', root);
    await failure(h.call('POST', '/entities/folders', { json: { name: 'A', parentFolderId: root } }), 409);
    const renamed = await ok<{ data: Json }>(h.call('PATCH', `/entities/folders/${a}`, { json: { name: 'B' } }));
    expect(renamed.data.attributes).toMatchObject({ name: 'B', parentFolderId: root, audienceId: audience.id });
    const inner = await folder('Inner', a);
    expect(await failure(h.call('DELETE', `/entities/folders/${a}`), 409)).toContain('1 folder(s)');
    await failure(h.call('DELETE', `/entities/folders/${root}`), 409);
    await failure(h.call('PATCH', `/entities/folders/${root}`, { json: { name: 'x' } }), 409);
    await ok(h.call('DELETE', `/entities/folders/${inner}`));
    await ok(h.call('DELETE', `/entities/folders/${a}`));
    await failure(h.call('GET', `/entities/folders/${a}`), 404);
    await failure(h.call('POST', '/entities/folders', { json: { name: '', parentFolderId: root } }), 400);
  });

  it('keeps segments in folders of their own parent segment', async () => {
    const second = await createParentSegment(h, {
      name: 'Second',
      master: { parentDatabaseName: 'shop', parentTableName: 'customers', parentKey: 'customer_id' },
    });
    const message = await failure(
      h.call('POST', `/audiences/${audience.id}/segments`, {
        json: { name: 'Lost', folderId: second.rootFolderId, rule: { type: 'And', conditions: [] } },
      }),
      400,
    );
    expect(message).toContain('not a folder of this parent segment');
  });

  it('keeps a segment in its folder when a PUT leaves out folderId', async () => {
    const kept = await folder('Kept', root);
    const rule = { type: 'And', conditions: [] };
    const created = await ok(
      h.call('POST', `/audiences/${audience.id}/segments`, { json: { name: 'Stays', folderId: kept, rule } }),
    );
    const updated = await ok(
      h.call('PUT', `/audiences/${audience.id}/segments/${created.id}`, { json: { name: 'Stays put', rule } }),
    );
    expect(updated).toMatchObject({ name: 'Stays put', folderId: kept });
    const moved = await ok(
      h.call('PUT', `/audiences/${audience.id}/segments/${created.id}`, {
        json: { name: 'Moved', folderId: root, rule },
      }),
    );
    expect(moved.folderId).toBe(root);
    await ok(h.call('DELETE', `/audiences/${audience.id}/segments/${created.id}`));
    await ok(h.call('DELETE', `/entities/folders/${kept}`));
  });

  it('needs Full Control for folder and segment writes: a View user gets 403 on each, a granted user may', async () => {
    const viewer = await addUser(h, 'viewer');
    const rule = { type: 'And', conditions: [] };
    const shared = await folder('Shared', root);
    const segment = await ok(
      h.call('POST', `/audiences/${audience.id}/segments`, { json: { name: 'Theirs', folderId: shared, rule } }),
    );
    const segmentPath = `/audiences/${audience.id}/segments/${segment.id}`;
    const asViewer = (method: string, path: string, json?: unknown) =>
      h.call(method, path, { key: viewer.key, ...(json === undefined ? {} : { json }) });
    const refused: [string, string, unknown][] = [
      ['POST', '/entities/folders', { name: 'Mine', parentFolderId: shared }],
      ['PATCH', `/entities/folders/${shared}`, { name: 'Renamed' }],
      ['DELETE', `/entities/folders/${shared}`, undefined],
      ['POST', `/audiences/${audience.id}/segments`, { name: 'Mine', folderId: shared, rule }],
      ['POST', `/audiences/${audience.id}/segments`, { name: 'Mine at the root', rule }],
      ['PUT', segmentPath, { name: 'Changed', rule }],
      ['DELETE', segmentPath, undefined],
    ];
    for (const [method, path, json] of refused) {
      const message = await failure(asViewer(method, path, json), 403);
      expect(message, `${method} ${path}`).toContain('View permission');
    }
    // Reading is still allowed, and nothing changed.
    expect(await ok(asViewer('GET', segmentPath))).toMatchObject({ name: 'Theirs', folderId: shared });
    expect(await list(shared)).toEqual(['segment:Theirs']);

    // Full Control on the folder (inherited by its sub-folders) allows the same writes there, not elsewhere.
    await ok(
      h.call('PUT', `/entities/folders/${shared}/permissions`, {
        json: { permissions: [{ userId: viewer.userId, permission: 'full_control' }] },
      }),
    );
    const inner = await ok<{ data: Json }>(
      asViewer('POST', '/entities/folders', { name: 'Inner', parentFolderId: shared }),
    );
    await ok(asViewer('PATCH', `/entities/folders/${inner.data.id}`, { name: 'Inner 2' }));
    await ok(asViewer('PUT', segmentPath, { name: 'Changed', folderId: inner.data.id, rule }));
    // Moving it out to the root, where the user has View, is refused.
    await failure(asViewer('PUT', segmentPath, { name: 'Changed', folderId: root, rule }), 403);
    await ok(asViewer('DELETE', segmentPath));
    await ok(asViewer('DELETE', `/entities/folders/${inner.data.id}`));
    await failure(asViewer('POST', `/audiences/${audience.id}/segments`, { name: 'Root', rule }), 403);
  });

  it('refuses folders nested deeper than 32 levels', async () => {
    let parent = root;
    for (let i = 1; i < 32; i++) parent = await folder(`L${i}`, parent);
    expect(
      await failure(h.call('POST', '/entities/folders', { json: { name: 'L32', parentFolderId: parent } }), 400),
    ).toContain('32 levels');
  });

  it('refuses deleting a parent segment that still holds journeys', async () => {
    expect(await failure(h.call('DELETE', `/audiences/${audience.id}`), 409)).toContain('journey 77');
  });
});
