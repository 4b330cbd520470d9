import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParentSegment, importRows, type Json, ok } from '../audiences/testing/audiences';
import { member } from '../journeys/testing/world';
import { one, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { testBackend } from '../testing/storage';

/** Grants live as long as their folder: folder ids are reused, so a new folder must not inherit old grants. */
describe('folder permission grants', () => {
  let h: Harness;
  let viewer: string;
  const master = { parentDatabaseName: 'shop', parentTableName: 'customers', parentKey: 'customer_id' };
  const folder = async (name: string, parentFolderId: string) =>
    (await ok<{ data: Json }>(h.call('POST', '/entities/folders', { json: { name, parentFolderId } }))).data
      .id as string;
  const grantFullControl = (folderId: string) =>
    ok(
      h.call('PUT', `/entities/folders/${folderId}/permissions`, {
        json: { permissions: [{ userId: viewer, permission: 'full_control' }] },
      }),
    );
  const grantsOn = async (folderId: string) =>
    (await ok<{ grants: Json[] }>(h.call('GET', `/entities/folders/${folderId}/permissions`))).grants;
  const reusesIds = testBackend() === 'sqlite';
  const storedGrants = async () =>
    Number((await one<{ n: number }>(h.deps.storage.db, sql`SELECT COUNT(*) AS n FROM folder_permissions`))?.n);

  beforeAll(async () => {
    h = await createHarness();
    await importRows(h, 'shop', 'customers', [{ customer_id: 1, time: 1 }]);
    viewer = (await member(h, 'gina')).userId;
  });
  afterAll(() => h.close());

  it('deletes a folder’s grants with it, so a new folder with the same id has none', async () => {
    const audience = await createParentSegment(h, { name: 'Customers', master });
    const old = await folder('Spring', audience.rootFolderId as string);
    await grantFullControl(old);
    expect(await grantsOn(old)).toMatchObject([{ userId: viewer, permission: 'full_control', inherited: false }]);

    await ok(h.call('DELETE', `/entities/folders/${old}`));
    const reborn = await folder('Autumn', audience.rootFolderId as string);
    // SQLite's INTEGER PRIMARY KEY without AUTOINCREMENT reuses the highest id; a PostgreSQL identity never does.
    expect(reborn === old).toBe(reusesIds);
    expect(await grantsOn(reborn)).toEqual([]);
    expect(await storedGrants()).toBe(0);
  });

  it('deletes the grants of every folder of a deleted parent segment', async () => {
    const audience = await createParentSegment(h, { name: 'Doomed', master });
    const root = audience.rootFolderId as string;
    const inner = await folder('Inner', await folder('Outer', root));
    await grantFullControl(root);
    await grantFullControl(inner);
    expect(await storedGrants()).toBe(2);

    await ok(h.call('DELETE', `/audiences/${audience.id}`));
    expect(await storedGrants()).toBe(0);
    const next = await createParentSegment(h, { name: 'Next', master });
    const reused = await folder('Again', next.rootFolderId as string);
    for (const id of [next.rootFolderId as string, reused]) expect(await grantsOn(id)).toEqual([]);
    expect([next.rootFolderId, reused].includes(root)).toBe(reusesIds);
  });
});
