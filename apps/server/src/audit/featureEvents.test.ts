import { afterEach, describe, expect, it } from 'vitest';
import { dwhHarness } from '../dwh/testing/fixture';
import { buildWorld, member, welcomeJourney } from '../journeys/testing/world';
import { createHarness, type Harness } from '../testing/harness';
import { expectOneEntry, storedEntries } from './testing/entries';

/**
 * Issue 20, point 4, continued: journeys launched, paused, resumed and deleted; folder permission
 * changes (by an administrator, and the Full Control a parent segment's creator gets); warehouse
 * authentications and integrations created, changed and deleted. Exactly one entry each.
 */
describe('audit entries of journeys, folder permissions and warehouses', () => {
  let h: Harness;
  afterEach(() => h.close());

  const ok = async (res: Promise<Response>, status = 200) => {
    const r = await res;
    const body = (await r.json()) as Record<string, unknown>;
    expect(r.status, JSON.stringify(body)).toBe(status);
    return body;
  };
  const count = async () => (await storedEntries(h)).length;

  it('journeys launched (at creation or later), paused, resumed and deleted; drafts write nothing', async () => {
    h = await createHarness();
    const world = await buildWorld(h);
    const journey = (name: string, state: 'draft' | 'launched') => welcomeJourney(world, name, state);
    let launchedId = '';
    const launched = await expectOneEntry(h, 'journey.launch', async () => {
      launchedId = String(
        (
          (await ok(h.call('POST', '/entities/journeys', { json: journey('Always on', 'launched') }))).data as {
            id: string;
          }
        ).id,
      );
    });
    expect(launched).toMatchObject({
      actor: h.admin.email,
      target: `journey ${launchedId} “Always on”`,
      details: { journey_id: Number(launchedId) },
    });

    const before = await count();
    const draft = (await ok(h.call('POST', '/entities/journeys', { json: journey('Later', 'draft') }))).data as {
      id: string;
    };
    await ok(h.call('PATCH', `/entities/journeys/${draft.id}`, { json: { attributes: { name: 'Later still' } } }));
    expect(await count()).toBe(before);
    await expectOneEntry(h, 'journey.launch', () =>
      ok(h.call('PATCH', `/entities/journeys/${draft.id}`, { json: { attributes: { state: 'launched' } } })),
    );

    await expectOneEntry(h, 'journey.pause', () => ok(h.call('PATCH', `/entities/journeys/${launchedId}/pause`)));
    await expectOneEntry(h, 'journey.resume', () => ok(h.call('PATCH', `/entities/journeys/${launchedId}/resume`)));
    // Refused changes are not events: a running journey cannot be deleted, and nothing is written.
    const refused = await count();
    await ok(h.call('DELETE', `/entities/journeys/${launchedId}`), 409);
    expect(await count()).toBe(refused);
    await ok(h.call('PATCH', `/entities/journeys/${launchedId}/pause`));
    const deleted = await expectOneEntry(h, 'journey.delete', () =>
      ok(h.call('DELETE', `/entities/journeys/${launchedId}`)),
    );
    expect(deleted.target).toBe(`journey ${launchedId} “Always on”`);
  });

  it('folder permissions changed by an administrator, and given to the creator of a parent segment', async () => {
    h = await createHarness();
    const gina = await member(h, 'gina');
    const other = await member(h, 'otto');
    const world = await buildWorld(h);
    const { master } = (await ok(h.call('GET', `/audiences/${world.parentSegmentId}`))) as { master: object };

    // Gina's parent segment: she gets Full Control on its root folder, recorded with her as the actor.
    let created: { id: string; rootFolderId: string } = { id: '', rootFolderId: '' };
    const granted = await expectOneEntry(h, 'folder.permissions_change', async () => {
      created = (await ok(
        h.call('POST', '/audiences', {
          key: gina.key,
          json: {
            name: 'Gina’s customers',
            master,
          },
        }),
      )) as typeof created;
    });
    expect(granted).toMatchObject({
      actor: 'gina@first.test',
      target: `folder ${created.rootFolderId} “Gina’s customers”`,
      details: { reason: 'creator', after: [{ user_id: Number(gina.userId), permission: 'full_control' }] },
    });
    const folder = (parentFolderId: string, key: string) =>
      h.call('POST', '/entities/folders', { key, json: { name: `By ${key.slice(0, 4)}`, parentFolderId } });
    await ok(folder(created.rootFolderId, gina.key));
    await ok(folder(created.rootFolderId, other.key), 403);

    // An administrator's grants: one entry per change with before and after; saving them unchanged is none.
    const grants = { permissions: [{ userId: other.userId, permission: 'full_control' }] };
    const path = `/entities/folders/${world.rootFolderId}/permissions`;
    const change = await expectOneEntry(h, 'folder.permissions_change', () =>
      ok(h.call('PUT', path, { json: grants })),
    );
    expect(change.details).toMatchObject({
      before: [],
      after: [{ user_id: Number(other.userId), email: 'otto@first.test', permission: 'full_control' }],
    });
    const unchanged = await count();
    await ok(h.call('PUT', path, { json: grants }));
    expect(await count()).toBe(unchanged);
    // An administrator creating a parent segment has Full Control already: no grant, no entry.
    await ok(
      h.call('POST', '/audiences', {
        json: { name: 'Admin’s', master },
      }),
    );
    expect(await count()).toBe(unchanged);
  });

  it('warehouse sync switched, authentications and integrations created, changed and deleted', async () => {
    h = await dwhHarness(); // switches the beta on: that is an entry too
    expect((await storedEntries(h)).map((e) => [e.action, e.details?.enabled])).toEqual([['dwh.feature_change', true]]);
    const secret = 'warehouse-password-9';
    let authId = 0;
    const auth = await expectOneEntry(h, 'dwh.authentication_create', async () => {
      const body = {
        name: 'warehouse',
        host: '127.0.0.1',
        port: 5432,
        database: 'shop',
        user: 'reader',
        password: secret,
      };
      authId = (await ok(h.call('POST', '/v1/authentications', { json: body }))).id as number;
    });
    expect(auth.target).toBe(`authentication ${authId} “warehouse”`);
    const changed = await expectOneEntry(h, 'dwh.authentication_update', () =>
      ok(h.call('PATCH', `/v1/authentications/${authId}`, { json: { password: 'another-password-1', port: 5433 } })),
    );
    expect([...((changed.details?.fields ?? []) as string[])].sort()).toEqual(['password', 'port']);
    expect(JSON.stringify(await storedEntries(h))).not.toMatch(/warehouse-password-9|another-password-1/);

    const integration = {
      name: 'orders sync',
      basic_configs: { svc_authentication_id: authId },
      advanced_configs: [
        {
          target_table: 'orders',
          config: { schema: 'public', table: 'orders', columns: [{ name: 'id', type: 'long' }] },
        },
      ],
      output_config: { database: 'dwh_target' },
    };
    let dwhId = 0;
    await expectOneEntry(h, 'dwh.integration_create', async () => {
      dwhId = (await ok(h.call('POST', '/v1/dwh/', { json: integration }))).dwh_id as number;
    });
    const renamed = await expectOneEntry(h, 'dwh.integration_update', () =>
      ok(h.call('PUT', `/v1/dwh/${dwhId}`, { json: { name: 'orders nightly' } })),
    );
    expect(renamed).toMatchObject({ target: `integration ${dwhId} “orders nightly”`, details: { fields: ['name'] } });
    await expectOneEntry(h, 'dwh.integration_delete', () => ok(h.call('DELETE', `/v1/dwh/${dwhId}`)));
    await expectOneEntry(h, 'dwh.authentication_delete', () => ok(h.call('DELETE', `/v1/authentications/${authId}`)));
    await expectOneEntry(h, 'dwh.feature_change', () =>
      ok(h.call('PUT', '/v1/dwh/feature', { json: { enabled: false } })),
    );
  });
});
