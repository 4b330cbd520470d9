import type { FolderPermissions } from '@svc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, ok } from '../audiences/testing/audiences';
import { buildWorld, member } from '../journeys/testing/world';
import { consoleCall, signIn } from '../session/testClient';
import { createHarness, type Harness } from '../testing/harness';

/**
 * What a member may do in a folder without any grant: the account's default folder permission (View
 * unless changed); a grant on the folder or above it decides over the default; the creator of a parent
 * segment has Full Control on it.
 */
describe('the default folder permission and the creator’s Full Control', () => {
  let h: Harness;
  let cookie: string;
  let gina: { userId: string; key: string };
  let rootFolderId: string;
  let master: Json;
  const access = async (folderId: string, key: string) =>
    (await ok<FolderPermissions>(h.call('GET', `/entities/folders/${folderId}/permissions`, { key }))).callerPermission;
  const newFolder = (parentFolderId: string, key: string, name: string) =>
    h.call('POST', '/entities/folders', { key, json: { name, parentFolderId } });
  const setDefault = async (value: string) =>
    expect(
      (
        await consoleCall(h, 'PATCH', '/console-api/account/settings', {
          cookie,
          json: { defaultFolderPermission: value },
        })
      ).status,
    ).toBe(200);

  beforeAll(async () => {
    h = await createHarness();
    cookie = await signIn(h);
    gina = await member(h, 'gina');
    const world = await buildWorld(h);
    rootFolderId = world.rootFolderId;
    master = (await ok<{ master: Json }>(h.call('GET', `/audiences/${world.parentSegmentId}`))).master;
  });
  afterAll(() => h.close());

  it('gives members the account default where no grant decides, and a grant overrides it', async () => {
    expect(await access(rootFolderId, gina.key)).toBe('view');
    expect((await newFolder(rootFolderId, gina.key, 'Spring')).status).toBe(403);

    await setDefault('full_control');
    const answer = await ok<FolderPermissions>(
      h.call('GET', `/entities/folders/${rootFolderId}/permissions`, { key: gina.key }),
    );
    expect(answer).toMatchObject({ defaultPermission: 'full_control', callerPermission: 'full_control', grants: [] });
    await ok(newFolder(rootFolderId, gina.key, 'Spring'));

    await ok(
      h.call('PUT', `/entities/folders/${rootFolderId}/permissions`, {
        json: { permissions: [{ userId: gina.userId, permission: 'view' }] },
      }),
    );
    expect(await access(rootFolderId, gina.key)).toBe('view');
    await ok(h.call('PUT', `/entities/folders/${rootFolderId}/permissions`, { json: { permissions: [] } }));
    await setDefault('view');
    expect(await access(rootFolderId, gina.key)).toBe('view');
  });

  it('gives the member who creates a parent segment Full Control on it, and no one else', async () => {
    const otto = await member(h, 'otto');
    const created = await ok<{ rootFolderId: string }>(
      h.call('POST', '/audiences', { key: gina.key, json: { name: 'Gina’s own', master } }),
    );
    expect(await access(created.rootFolderId, gina.key)).toBe('full_control');
    expect(await access(created.rootFolderId, otto.key)).toBe('view');
    const grants = await ok<FolderPermissions>(h.call('GET', `/entities/folders/${created.rootFolderId}/permissions`));
    expect(grants.grants).toEqual([
      expect.objectContaining({ userId: gina.userId, permission: 'full_control', inherited: false }),
    ]);
    // Sub-folders inherit it: she saves a segment anywhere in her tree.
    const sub = await ok<{ data: { id: string } }>(newFolder(created.rootFolderId, gina.key, 'Campaigns'));
    expect(await access(sub.data.id, gina.key)).toBe('full_control');
  });
});
