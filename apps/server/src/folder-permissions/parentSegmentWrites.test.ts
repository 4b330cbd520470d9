import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, ok } from '../audiences/testing/audiences';
import { buildWorld, member } from '../journeys/testing/world';
import { createHarness, type Harness } from '../testing/harness';

/**
 * Changing, rebuilding and deleting a parent segment are writes in its root folder: a member with View
 * there gets 403 saying what to ask for, and the parent segment is left as it was.
 */
describe('parent segment writes follow folder permissions', () => {
  let h: Harness;
  let viewer: { userId: string; key: string };
  let parentSegmentId: string;
  let rootFolderId: string;

  beforeAll(async () => {
    h = await createHarness();
    viewer = await member(h, 'vera');
    const world = await buildWorld(h);
    parentSegmentId = world.parentSegmentId;
    rootFolderId = world.rootFolderId;
  });
  afterAll(() => h.close());

  const record = () => ok<Json>(h.call('GET', `/audiences/${parentSegmentId}`));
  const refused = async (res: Response, action: string) => {
    expect(res.status).toBe(403);
    const body = (await res.json()) as { message: string };
    expect(body.message).toBe(
      `You have View permission on this folder, so you cannot ${action}. Ask an administrator for Full Control on the folder.`,
    );
  };

  it('refuses rebuild, change and delete to a View member, and allows them with Full Control', async () => {
    const before = await record();
    const key = viewer.key;
    await refused(await h.call('POST', `/audiences/${parentSegmentId}/run`, { key }), 'rebuild this parent segment');
    await refused(
      await h.call('PUT', `/audiences/${parentSegmentId}`, { key, json: { ...before, name: 'Renamed by a viewer' } }),
      'change this parent segment',
    );
    await refused(await h.call('DELETE', `/audiences/${parentSegmentId}`, { key }), 'delete this parent segment');
    const after = await record();
    expect(after.name).toBe(before.name);
    expect(after.buildJobId).toBe(before.buildJobId);

    await ok(
      h.call('PUT', `/entities/folders/${rootFolderId}/permissions`, {
        json: { permissions: [{ userId: viewer.userId, permission: 'full_control' }] },
      }),
    );
    await ok(h.call('POST', `/audiences/${parentSegmentId}/run`, { key }));
    await ok(h.call('DELETE', `/audiences/${parentSegmentId}`, { key }));
    expect((await h.call('GET', `/audiences/${parentSegmentId}`)).status).toBe(404);
  });
});
