import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAccount } from '../accounts';
import { createHarness, type Harness } from '../testing/harness';
import { addUser, createParentSegment, failure, importRows, type Json, ok } from './testing/audiences';

/** Bad input answers 4xx with a message naming the problem; other accounts' objects are 404. */
describe('parent segment validation and account scoping', () => {
  let h: Harness;
  let other: NewAccount;
  let record: Json;
  let segment: Json;
  const master = { parentDatabaseName: 'shop', parentTableName: 'customers', parentKey: 'customer_id' };

  beforeAll(async () => {
    h = await createHarness();
    other = await h.newAccount('Other');
    await importRows(h, 'shop', 'customers', [{ customer_id: 1, email: 'a@b.c', time: 1 }]);
    await importRows(h, 'shop', 'orders', [{ customer_id: 1, total: 3, time: 2 }]);
    record = await createParentSegment(h, {
      name: 'Customers',
      master,
      attributes: [{ name: 'email', parentColumn: 'email' }],
    });
    segment = await ok(
      h.call('POST', `/audiences/${record.id}/segments`, {
        json: { name: 'All', rule: { type: 'And', conditions: [] } },
      }),
    );
  });
  afterAll(() => h.close());

  const create = (body: Json) => h.call('POST', '/audiences', { json: { name: 'X', ...body } });

  it('refuses the NUL character in names, descriptions and rule values with 400 (PostgreSQL text cannot hold it)', async () => {
    const nul = 'a\u0000b';
    expect(await failure(create({ name: nul, master }), 400)).toContain('"name" contains the NUL character');
    expect(await failure(create({ description: nul, master }), 400)).toContain('"description"');
    const segments = `/audiences/${record.id}/segments`;
    const everyone = { type: 'And', conditions: [] };
    expect(await failure(h.call('POST', segments, { json: { name: nul, rule: everyone } }), 400)).toContain(
      'NUL character',
    );
    const rule = {
      type: 'And',
      conditions: [{ type: 'Value', leftValue: { name: 'email' }, operator: { type: 'Contain', rightValue: nul } }],
    };
    const counted = h.call('POST', `/audiences/${record.id}/population`, { json: { rule } });
    expect(await failure(counted, 400)).toContain('NUL character');
    expect((await ok<Json[]>(h.call('GET', '/audiences'))).map((r) => r.name)).toEqual(['Customers']);
  });

  it('names a missing database, table or column', async () => {
    expect(await failure(create({ master: { ...master, parentDatabaseName: 'nope_db' } }), 400)).toContain('"nope_db"');
    expect(await failure(create({ master: { ...master, parentTableName: 'nope_table' } }), 400)).toContain(
      '"nope_table"',
    );
    expect(await failure(create({ master: { ...master, parentKey: 'nope_key' } }), 400)).toContain('"nope_key"');
    expect(
      await failure(create({ master, attributes: [{ name: 'a', parentColumn: 'missing_column' }] }), 400),
    ).toContain('"missing_column"');
    expect(
      await failure(
        create({
          master,
          behaviors: [{ name: 'b', parentDatabaseName: 'shop', parentTableName: 'orders', foreignKey: 'nope_fk' }],
        }),
        400,
      ),
    ).toContain('"nope_fk"');
    expect(
      await failure(
        create({ master, attributes: [{ name: 't', parentTableName: 'orders', parentColumn: 'total' }] }),
        400,
      ),
    ).toContain('foreignKey');
    expect(
      await failure(
        create({
          master,
          behaviors: [{ name: 'b', parentDatabaseName: 'shop', parentTableName: 'no_such_events', foreignKey: 'x' }],
        }),
        400,
      ),
    ).toContain('"no_such_events"');
    expect(await failure(create({ master: { parentDatabaseName: 'shop' } }), 400)).toContain('master');
    expect(
      await failure(create({ master, attributes: [{ name: 'email', parentColumn: 'email', type: 'number' }] }), 400),
    ).toContain('use string');
    expect(
      await failure(
        create({
          master,
          attributes: [
            { name: 'same', parentColumn: 'email' },
            { name: 'same', parentColumn: 'customer_id' },
          ],
        }),
        400,
      ),
    ).toContain('"same"');
  });

  it('answers the spec’s spellings with a slash: GET /audiences/ and PUT /audiences/ with the id in the record', async () => {
    const listed = await ok<Json[]>(h.call('GET', '/audiences/'));
    expect(listed.map((r) => r.id)).toContain(record.id);
    const current = await ok(h.call('GET', `/audiences/${record.id}`));
    const updated = await ok(h.call('PUT', '/audiences/', { json: { ...current, description: 'via slash' } }));
    expect(updated).toMatchObject({ id: record.id, description: 'via slash' });
    await failure(h.call('PUT', '/audiences/', { json: { ...current, id: undefined } }), 400);
  });

  it('runs the spec’s time-filter recipe on the slash path: GET /audiences/?id= answers the record, PUT /audiences/ takes it back', async () => {
    const created = await createParentSegment(h, {
      name: 'Signups',
      master,
      attributes: [{ name: 'signed_up', parentColumn: 'time' }],
    });
    const fetched = await ok(h.call('GET', `/audiences/?id=${created.id}`));
    expect(Array.isArray(fetched)).toBe(false);
    expect(fetched).toEqual(await ok(h.call('GET', `/audiences/${created.id}`)));
    const attributes = fetched.attributes as Json[];
    expect(attributes[0]).toMatchObject({ name: 'signed_up', type: 'number' });
    const edited = { ...fetched, attributes: attributes.map((a) => ({ ...a, type: 'timestamp' })) };
    const updated = await ok(h.call('PUT', '/audiences/', { json: edited }));
    expect((updated.attributes as Json[])[0]).toMatchObject({ name: 'signed_up', type: 'timestamp' });
    expect(((await ok(h.call('GET', `/audiences/?id=${created.id}`))).attributes as Json[])[0]?.type).toBe('timestamp');
    // The list stays where it was; unknown ids and other accounts' ids are 404 like on /audiences/:id.
    expect((await ok<Json[]>(h.call('GET', '/audiences/'))).map((r) => r.id)).toEqual(
      expect.arrayContaining([record.id, created.id]),
    );
    expect(await failure(h.call('GET', '/audiences/?id=999999'), 404)).toBe('Resource not found');
    expect(await failure(h.call('GET', `/audiences/?id=${created.id}`, { key: other.masterKey }), 404)).toBe(
      'Resource not found',
    );
  });

  it('keeps read-only fields and unknown ids from changing the record', async () => {
    const edited = {
      ...structuredClone(record),
      id: '999',
      population: 12345,
      rootFolderId: '1',
      createdBy: { id: '42', name: 'mallory' },
    };
    const updated = await ok(h.call('PUT', `/audiences/${record.id}`, { json: edited }));
    expect(updated).toMatchObject({ id: record.id, population: 1, rootFolderId: record.rootFolderId });
    expect(updated.createdBy).toEqual(record.createdBy);
    const strange = structuredClone(record);
    (strange.attributes as Json[])[0]!.id = '77';
    expect(await failure(h.call('PUT', `/audiences/${record.id}`, { json: strange }), 400)).toContain('"77"');
  });

  it('refuses a PUT without attributes or behaviors instead of deleting them all', async () => {
    const current = await ok(h.call('GET', `/audiences/${record.id}`));
    const { attributes: _a, ...noAttributes } = current;
    expect(await failure(h.call('PUT', `/audiences/${record.id}`, { json: noAttributes }), 400)).toContain(
      'Send the whole record',
    );
    const { behaviors: _b, ...noBehaviors } = current;
    const message = await failure(h.call('PUT', `/audiences/${record.id}`, { json: noBehaviors }), 400);
    expect(message).toContain('"behaviors"');
    await failure(h.call('PUT', '/audiences/', { json: { ...noAttributes, id: record.id } }), 400);
    // Nothing changed; an empty list is how to remove them all.
    expect((await ok(h.call('GET', `/audiences/${record.id}`))).attributes).toEqual(current.attributes);
  });

  it('records the user who last edited the record in updatedBy', async () => {
    const editor = await addUser(h, 'editor');
    const doc = await createParentSegment(h, { name: 'Edited by two', master });
    expect(doc.updatedBy).toEqual({ id: String(h.admin.userId), name: 'admin' });
    // Changing a parent segment needs Full Control on its folder; members have View by default.
    await ok(
      h.call('PUT', `/entities/folders/${doc.rootFolderId}/permissions`, {
        json: { permissions: [{ userId: editor.userId, permission: 'full_control' }] },
      }),
    );
    const updated = await ok(
      h.call('PUT', `/audiences/${doc.id}`, { key: editor.key, json: { ...doc, description: 'second hand' } }),
    );
    expect(updated.updatedBy).toEqual({ id: editor.userId, name: 'editor' });
    expect(updated.createdBy).toEqual({ id: String(h.admin.userId), name: 'admin' });
    await ok(h.call('DELETE', `/audiences/${doc.id}`));
  });

  it('answers 404 for other accounts’ and unknown ids, never 500', async () => {
    const key = other.masterKey;
    const paths = [
      `/audiences/${record.id}`,
      `/audiences/${record.id}/segments`,
      `/audiences/${record.id}/segments/${segment.id}`,
      `/audiences/${record.id}/segments/${segment.id}/population`,
      `/audiences/${record.id}/segments/${segment.id}/sample`,
      `/entities/by-folder/${record.rootFolderId}`,
      `/entities/folders/${record.rootFolderId}`,
    ];
    for (const path of paths) await failure(h.call('GET', path, { key }), 404);
    await failure(h.call('PUT', `/audiences/${record.id}`, { key, json: record }), 404);
    await failure(h.call('DELETE', `/audiences/${record.id}`, { key }), 404);
    await failure(h.call('POST', `/audiences/${record.id}/run`, { key }), 404);
    await failure(h.call('DELETE', `/audiences/${record.id}/segments/${segment.id}`, { key }), 404);
    await failure(
      h.call('POST', '/entities/folders', { key, json: { name: 'x', parentFolderId: record.rootFolderId } }),
      404,
    );
    for (const bad of ['abc', '0', '-1', '99999999', '1e3']) {
      await failure(h.call('GET', `/audiences/${bad}`), 404);
      await failure(h.call('GET', `/entities/by-folder/${bad}`), 404);
    }
    expect((await ok<Json[]>(h.call('GET', '/audiences', { key }))).length).toBe(0);
  });

  it('refuses write-only keys and callers without a key', async () => {
    await failure(h.call('GET', '/audiences', { key: h.admin.writeOnlyKey }), 403);
    await failure(h.call('GET', '/audiences', { key: null }), 401);
  });

  it('rebuilds on demand and after a change of sources', async () => {
    const run = await ok(h.call('POST', `/audiences/${record.id}/run`));
    expect(run.buildJobId).not.toBe(record.buildJobId);
    expect(await h.app.services.jobs.whenSettled(Number(run.buildJobId))).toBe('success');
    const job = await ok(h.call('GET', `/v3/job/show/${run.buildJobId}`));
    expect(job).toMatchObject({ type: 'audience_build', status: 'success', num_records: 1 });

    const current = await ok(h.call('GET', `/audiences/${record.id}`));
    const edited = {
      ...current,
      attributes: [
        ...(current.attributes as Json[]),
        { name: 'last_total', parentTableName: 'orders', parentColumn: 'total', foreignKey: 'customer_id' },
      ],
      behaviors: [
        {
          name: 'orders',
          parentDatabaseName: 'shop',
          parentTableName: 'orders',
          foreignKey: 'customer_id',
          schema: [{ parentColumn: 'total' }],
        },
      ],
    };
    const updated = await ok(h.call('PUT', `/audiences/${record.id}`, { json: edited }));
    expect(updated.buildJobId).not.toBe(current.buildJobId);
    await h.app.services.jobs.whenSettled(Number(updated.buildJobId));
    const rule = {
      type: 'And',
      conditions: [{ type: 'Behavior', behavior: 'orders', count: { type: 'Equal', rightValue: 1 } }],
    };
    expect(await ok(h.call('POST', `/audiences/${record.id}/population`, { json: { rule } }))).toMatchObject({
      population: 1,
    });
    // The joined attribute holds the newest order's total of the customer.
    const sample = await ok<{ profiles: Json[] }>(h.call('POST', `/audiences/${record.id}/sample`, { json: { rule } }));
    expect(sample.profiles).toEqual([{ key: '1', attributes: { email: 'a@b.c', last_total: 3 } }]);
  });

  it('deletes a parent segment with its segments and folders', async () => {
    const doomed = await createParentSegment(h, { name: 'Doomed', master });
    await ok(h.call('DELETE', `/audiences/${doomed.id}`));
    await failure(h.call('GET', `/audiences/${doomed.id}`), 404);
    await failure(h.call('GET', `/entities/folders/${doomed.rootFolderId}`), 404);
  });

  it('documents every route in the OpenAPI document', async () => {
    const doc = await ok<{ paths: Record<string, Record<string, unknown>> }>(h.call('GET', '/openapi.json'));
    const expected: [string, string][] = [
      ['/audiences', 'get'],
      ['/audiences', 'post'],
      ['/audiences/', 'get'],
      ['/audiences/', 'put'],
      ['/audiences/{id}', 'get'],
      ['/audiences/{id}', 'put'],
      ['/audiences/{id}', 'delete'],
      ['/audiences/{id}/run', 'post'],
      ['/audiences/{id}/population', 'post'],
      ['/audiences/{id}/sample', 'post'],
      ['/audiences/{id}/segments', 'get'],
      ['/audiences/{id}/segments', 'post'],
      ['/audiences/{id}/segments/{segmentId}', 'get'],
      ['/audiences/{id}/segments/{segmentId}', 'put'],
      ['/audiences/{id}/segments/{segmentId}', 'delete'],
      ['/audiences/{id}/segments/{segmentId}/population', 'get'],
      ['/audiences/{id}/segments/{segmentId}/sample', 'get'],
      ['/entities/by-folder/{folderId}', 'get'],
      ['/entities/folders', 'post'],
      ['/entities/folders/{folderId}', 'get'],
      ['/entities/folders/{folderId}', 'patch'],
      ['/entities/folders/{folderId}', 'delete'],
    ];
    for (const [path, method] of expected) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });
});
