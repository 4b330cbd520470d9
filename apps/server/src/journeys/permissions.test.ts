import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { end, stage, wait } from './testing/steps';
import { activationBody, buildWorld, member, send, type World } from './testing/world';

/** Folder permissions (Full Control / View), inheritance, and account scoping. */

let h: Harness;
let world: World;
beforeEach(async () => {
  h = await createHarness();
  world = await buildWorld(h);
});
afterEach(() => h.close());

const path = (id: string, rest = '') => `/entities/journeys/${id}${rest}`;

async function journey(state: 'draft' | 'launched', folderId = world.rootFolderId, key?: string) {
  const res = await send<{ data: { id: string } }>(
    h,
    'POST',
    '/entities/journeys',
    {
      type: 'journey',
      attributes: {
        name: 'Welcome',
        state,
        audienceId: world.parentSegmentId,
        journeyStages: [stage(world.segments['301'] as string, 'w', { w: wait('e'), e: end() }, { name: 'Welcome' })],
      },
      relationships: { parentFolder: { data: { id: folderId, type: 'folder-segment' } } },
    },
    key,
  );
  return res;
}

async function subFolder(name: string, parentFolderId: string): Promise<string> {
  const res = await send<{ data: { id: string } }>(h, 'POST', '/entities/folders', { name, parentFolderId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

const grant = (folderId: string, permissions: Array<{ userId: string; permission: string }>, key?: string) =>
  send(h, 'PUT', `/entities/folders/${folderId}/permissions`, { permissions }, key);

describe('a View user (the default without a grant)', () => {
  it('reads journeys but gets 403 on every change: patch, delete, pause, resume, A/B, activations, create, duplicate', async () => {
    const viewer = await member(h, 'vera');
    const draft = (await journey('draft')).body.data.id;
    const running = (await journey('launched')).body.data.id;
    const paused = (await journey('launched')).body.data.id;
    expect((await send(h, 'PATCH', path(paused, '/pause'))).status).toBe(200);
    const activation = await send<{ data: { id: string } }>(
      h,
      'POST',
      path(draft, '/syndications'),
      activationBody(world),
    );

    expect((await send(h, 'GET', path(draft), undefined, viewer.key)).status).toBe(200);
    expect(
      (await send(h, 'GET', path(draft, `/syndications/${activation.body.data.id}`), undefined, viewer.key)).status,
    ).toBe(200);
    const refused: Array<[string, string, unknown]> = [
      ['PATCH', path(draft), { attributes: { name: 'Mine now' } }],
      ['DELETE', path(draft), undefined],
      ['PATCH', path(running, '/pause'), undefined],
      ['PATCH', path(paused, '/resume'), undefined],
      ['POST', path(draft), { type: 'ABTest', variants: [], precedingStepId: 'w' }],
      ['POST', path(draft, '/syndications'), activationBody(world)],
      [
        'PATCH',
        path(draft, `/syndications/${activation.body.data.id}`),
        { attributes: { syndication_params: { name: 'x' } } },
      ],
      ['DELETE', path(draft, `/syndications/${activation.body.data.id}`), undefined],
      ['POST', '/entities/journeys/duplicate', { id: draft }],
    ];
    for (const [method, url, body] of refused) {
      const res = await send<{ message: string }>(h, method, url, body, viewer.key);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.message).toMatch(/View permission.*Ask an administrator for Full Control/);
    }
    expect((await journey('draft', world.rootFolderId, viewer.key)).status).toBe(403);
    // Nothing changed.
    const still = await send<{ data: { attributes: { name: string; paused: boolean } } }>(h, 'GET', path(paused));
    expect(still.body.data.attributes.paused).toBe(true);
  });
});

describe('Full Control granted by an administrator', () => {
  it('lets the user create, change, pause, resume and delete in the folder and its sub-folders', async () => {
    const editor = await member(h, 'eddie');
    const child = await subFolder('Campaigns', world.rootFolderId);
    const granted = await grant(world.rootFolderId, [{ userId: editor.userId, permission: 'full_control' }]);
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);

    const created = await journey('launched', child, editor.key);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    for (const action of ['/pause', '/resume', '/pause']) {
      expect((await send(h, 'PATCH', path(id, action), undefined, editor.key)).status, action).toBe(200);
    }
    expect((await send(h, 'DELETE', path(id), undefined, editor.key)).status).toBe(200);
  });

  it('is narrowed by a View grant on a sub-folder (the nearest grant decides)', async () => {
    const editor = await member(h, 'nina');
    const child = await subFolder('Finance', world.rootFolderId);
    const grandchild = await subFolder('Quarterly', child);
    await grant(world.rootFolderId, [{ userId: editor.userId, permission: 'full_control' }]);
    await grant(child, [{ userId: editor.userId, permission: 'view' }]);
    expect((await journey('draft', grandchild, editor.key)).status).toBe(403);
    expect((await journey('draft', world.rootFolderId, editor.key)).status).toBe(200);

    const described = await send<{ grants: unknown[]; callerPermission: string; defaultPermission: string }>(
      h,
      'GET',
      `/entities/folders/${grandchild}/permissions`,
      undefined,
      editor.key,
    );
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({ callerPermission: 'view', defaultPermission: 'view' });
    expect(described.body.grants).toEqual([
      expect.objectContaining({
        userId: editor.userId,
        userName: 'nina',
        permission: 'view',
        folderId: child,
        inherited: true,
      }),
    ]);
  });

  it('moving a journey needs Full Control on the folder it goes to', async () => {
    const editor = await member(h, 'mo');
    const locked = await subFolder('Locked', world.rootFolderId);
    await grant(world.rootFolderId, [{ userId: editor.userId, permission: 'full_control' }]);
    await grant(locked, [{ userId: editor.userId, permission: 'view' }]);
    const id = (await journey('draft', world.rootFolderId, editor.key)).body.data.id;
    const move = { relationships: { parentFolder: { data: { id: locked, type: 'folder-segment' } } } };
    expect((await send(h, 'PATCH', path(id), move, editor.key)).status).toBe(403);
    const moved = await send<{ data: { relationships: { parentFolder: { data: { id: string } } } } }>(
      h,
      'PATCH',
      path(id),
      move,
    );
    expect(moved.body.data.relationships.parentFolder.data.id).toBe(locked);
  });
});

describe('granting', () => {
  it('is for administrators only, for users of the account, with known permissions', async () => {
    const editor = await member(h, 'gus');
    expect(
      (await grant(world.rootFolderId, [{ userId: editor.userId, permission: 'full_control' }], editor.key)).status,
    ).toBe(403);
    expect((await grant(world.rootFolderId, [{ userId: '424242', permission: 'view' }])).status).toBe(400);
    const bad = await grant(world.rootFolderId, [{ userId: editor.userId, permission: 'owner' }]);
    expect(bad.status).toBe(400);
    expect((await grant('424242', [])).status).toBe(404);
    const other = await h.newAccount('Other');
    expect((await grant(world.rootFolderId, [{ userId: String(other.userId), permission: 'view' }])).status).toBe(400);
  });

  it('replaces the folder’s own grants and answers what they are now', async () => {
    const a = await member(h, 'ada');
    const b = await member(h, 'bea');
    await grant(world.rootFolderId, [{ userId: a.userId, permission: 'full_control' }]);
    const res = await grant(world.rootFolderId, [{ userId: b.userId, permission: 'view' }]);
    expect(res.body).toMatchObject({
      folderId: world.rootFolderId,
      grants: [{ userId: b.userId, permission: 'view', inherited: false, grantedAt: '2026-11-22T09:00:00Z' }],
      callerPermission: 'full_control',
    });
    expect((await journey('draft', world.rootFolderId, a.key)).status).toBe(403);
  });
});

describe('another account', () => {
  it('sees none of this account’s journeys, activations or folders: 404 everywhere', async () => {
    const other = await h.newAccount('Other');
    const id = (await journey('launched')).body.data.id;
    const activation = await send<{ data: { id: string } }>(
      h,
      'POST',
      path(id, '/syndications'),
      activationBody(world),
    );
    const key = other.masterKey;
    const calls: Array<[string, string, unknown]> = [
      ['GET', path(id), undefined],
      ['PATCH', path(id), { attributes: { name: 'x' } }],
      ['DELETE', path(id), undefined],
      ['PATCH', path(id, '/pause'), undefined],
      ['PATCH', path(id, '/resume'), undefined],
      ['POST', path(id), { type: 'ABTest' }],
      ['GET', path(id, '/syndications'), undefined],
      ['POST', path(id, '/syndications'), activationBody(world)],
      ['GET', path(id, `/syndications/${activation.body.data.id}`), undefined],
      ['PATCH', path(id, `/syndications/${activation.body.data.id}`), activationBody(world, { name: 'Theirs' })],
      ['DELETE', path(id, `/syndications/${activation.body.data.id}`), undefined],
      ['POST', '/entities/journeys/duplicate', { id }],
      ['GET', `/entities/folders/${world.rootFolderId}/permissions`, undefined],
      ['PUT', `/entities/folders/${world.rootFolderId}/permissions`, { permissions: [] }],
    ];
    for (const [method, url, body] of calls) {
      const res = await send<{ error: string }>(h, method, url, body, key);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error).toBe('Resource not found');
    }
  });
});

describe('the folder listing', () => {
  it('shows journeys in GET /entities/by-folder', async () => {
    const child = await subFolder('Campaigns', world.rootFolderId);
    const id = (await journey('draft', child)).body.data.id;
    const res = await send<{ data: Array<{ id: string; type: string; attributes: Record<string, unknown> }> }>(
      h,
      'GET',
      `/entities/by-folder/${world.rootFolderId}?depth=2`,
    );
    expect(res.status).toBe(200);
    const entry = res.body.data.find((e) => e.type === 'journey');
    expect(entry).toMatchObject({
      id,
      attributes: { name: 'Welcome', state: 'draft', paused: false },
      relationships: { parentFolder: { data: { id: child, type: 'folder-segment' } } },
    });
  });

  it('names who created each journey, a member as well as the administrator, in both listings', async () => {
    const editor = await member(h, 'olga');
    expect((await grant(world.rootFolderId, [{ userId: editor.userId, permission: 'full_control' }])).status).toBe(200);
    const byAdmin = (await journey('draft')).body.data.id;
    const byMember = (await journey('draft', world.rootFolderId, editor.key)).body.data.id;
    type Listed = { data: Array<{ id: string; type: string; attributes: { createdByName?: string | null } }> };
    const owners = (body: Listed) =>
      Object.fromEntries(body.data.filter((e) => e.type === 'journey').map((e) => [e.id, e.attributes.createdByName]));
    const admin = (await send<{ name: string }>(h, 'GET', '/v3/user/show')).body.name;
    const expected = { [byAdmin]: admin, [byMember]: 'olga' };
    expect(owners((await send<Listed>(h, 'GET', '/entities/journeys')).body)).toEqual(expected);
    expect(owners((await send<Listed>(h, 'GET', `/entities/by-folder/${world.rootFolderId}?depth=2`)).body)).toEqual(
      expected,
    );
  });

  it('lists journeys by parent segment or folder, only the caller’s account', async () => {
    const child = await subFolder('Campaigns', world.rootFolderId);
    const inRoot = (await journey('draft')).body.data.id;
    const inChild = (await journey('launched', child)).body.data.id;
    const list = async (query: string, key?: string) =>
      (
        await send<{ data: Array<{ id: string }> }>(h, 'GET', `/entities/journeys${query}`, undefined, key)
      ).body.data.map((j) => j.id);
    expect(await list('')).toEqual([inRoot, inChild]);
    expect(await list(`?folderId=${child}`)).toEqual([inChild]);
    expect(await list(`?audienceId=${world.parentSegmentId}`)).toEqual([inRoot, inChild]);
    expect(await list('?audienceId=424242')).toEqual([]);
    expect(await list('', (await h.newAccount('Other')).masterKey)).toEqual([]);
  });

  it('keeps a segment a journey uses from being deleted', async () => {
    await journey('draft');
    const res = await send<{ message: string }>(
      h,
      'DELETE',
      `/audiences/${world.parentSegmentId}/segments/${world.segments['301']}`,
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/journey \d+ \("Welcome"\)/);
  });
});
