import { existsSync } from 'node:fs';
import { databaseList, databaseObject } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { customerSchema, one, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { responseErrors, schemaErrors } from '../testing/oasContract';
import { findDatabase } from './catalog';
import { duckFile } from './duckFiles';
import { appendRows } from './tableStore';

const NOT_FOUND = {
  error: 'Resource not found',
  message: 'Resource not found',
  text: 'Resource not found',
  severity: 'error',
  status_code: 404,
};

describe('databases', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const create = (name: string, key?: string) => h.call('POST', `/v3/database/create/${name}`, { key });

  it('creates a database and answers {database}', async () => {
    const res = await create('web_events');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ database: 'web_events' });
    expect(responseErrors('post', '/database/create/{database_name}', { database: 'web_events' })).toEqual([]);
  });

  it('accepts the empty form body Ruby sends and the empty body Python sends', async () => {
    const rb = await h.call('POST', '/v3/database/create/from_ruby', { form: {} });
    const py = await h.call('POST', '/v3/database/create/from_python', { body: '' });
    expect([rb.status, py.status]).toEqual([200, 200]);
  });

  it('refuses a second database of the same name with 409', async () => {
    await create('web_events');
    const res = await create('web_events');
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ message: 'Database web_events already exists.', status_code: 409 });
  });

  it.each([
    ['with a quote', encodeURIComponent('we"b')],
    ['with 300 characters', 'a'.repeat(300)],
    ['with 2 characters', 'ab'],
    ['with uppercase letters', 'WebEvents'],
    ['with a dash', 'web-events'],
  ])('refuses a name %s with 400 stating the rule', async (_label, name) => {
    const res = await create(name);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; status_code: number };
    expect(body.status_code).toBe(400);
    expect(body.message).toContain('lowercase letters, digits and underscores, 3 to 255 characters');
  });

  it('accepts a name of exactly 255 characters', async () => {
    expect((await create('a'.repeat(255))).status).toBe(200);
  });

  it('shows a database with the spec types and the UTC time form', async () => {
    await create('web_events');
    const res = await h.call('GET', '/v3/database/show/web_events');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'web_events',
      created_at: '2026-11-22 09:00:00 UTC',
      updated_at: '2026-11-22 09:00:00 UTC',
      count: 0,
      organization: null,
      permission: 'owner',
      delete_protected: false,
      datatank: false,
    });
    expect(databaseObject.parse(body)).toBeTruthy();
    expect(schemaErrors('Database', body)).toEqual([]);
  });

  it('counts the records of all tables of a database', async () => {
    await create('web_events');
    const database = await findDatabase(h.deps.storage.db, h.admin.accountId, 'web_events');
    if (!database) throw new Error('database missing');
    await appendRows(h.deps, database, 'pageviews', [{ time: 1, a: 1 }, { time: 2 }], { createTable: true });
    await appendRows(h.deps, database, 'clicks', [{ time: 3 }], { createTable: true });
    const show = (await (await h.call('GET', '/v3/database/show/web_events')).json()) as { count: number };
    const list = (await (await h.call('GET', '/v3/database/list')).json()) as { databases: { count: number }[] };
    expect(show.count).toBe(3);
    expect(list.databases[0]?.count).toBe(3);
  });

  it('lists databases with the offset time form and what clients read', async () => {
    await create('web_events');
    h.clock.advance(61_000);
    await create('crm');
    const res = await h.call('GET', '/v3/database/list');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      databases: [
        {
          name: 'crm',
          count: 0,
          created_at: '2026-11-22 09:01:01 +0000',
          updated_at: '2026-11-22 09:01:01 +0000',
          organization: null,
          permission: 'owner',
        },
        expect.objectContaining({ name: 'web_events', created_at: '2026-11-22 09:00:00 +0000' }),
      ],
    });
    // The spec's five fields per item and the permission td-client-ruby needs; the record keeps delete_protection.
    for (const item of (body as { databases: object[] }).databases) {
      expect(Object.keys(item).sort()).toEqual([
        'count',
        'created_at',
        'name',
        'organization',
        'permission',
        'updated_at',
      ]);
    }
    expect(await (await h.call('GET', '/v3/database/show/crm')).json()).toMatchObject({
      permission: 'owner',
      delete_protected: false,
    });
    expect(databaseList.parse(body)).toBeTruthy();
    // The service contract's five fields and permission (decision 0024); the public OAS also requires
    // delete_protected: that is the only difference.
    expect(responseErrors('get', '/database/list', body)).toEqual(
      [0, 1].map(
        (i) => `/databases/${i} must have required property 'delete_protected' {"missingProperty":"delete_protected"}`,
      ),
    );
  });

  it('answers 404 with the spec body for a missing database', async () => {
    for (const path of ['/v3/database/show/nothing_here', '/v3/database/delete/nothing_here']) {
      const res = await h.call(path.includes('delete') ? 'POST' : 'GET', path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(NOT_FOUND);
      expect(res.headers.get('x-svc-not-found')).toBe('database');
    }
  });

  it("never shows, lists or deletes another account's database", async () => {
    const other = await h.newAccount('Other');
    await create('theirs', other.masterKey);
    expect((await h.call('GET', '/v3/database/show/theirs')).status).toBe(404);
    expect((await h.call('POST', '/v3/database/delete/theirs')).status).toBe(404);
    expect((await h.call('POST', '/v3/database/update/theirs', { form: { delete_protected: 'true' } })).status).toBe(
      404,
    );
    const list = (await (await h.call('GET', '/v3/database/list')).json()) as { databases: unknown[] };
    expect(list.databases).toEqual([]);
    // The same name is free in this account.
    expect((await create('theirs')).status).toBe(200);
  });

  it('deletes a database with its tables and its data file', async () => {
    await create('web_events');
    const database = await findDatabase(h.deps.storage.db, h.admin.accountId, 'web_events');
    if (!database) throw new Error('database missing');
    await appendRows(h.deps, database, 'pageviews', [{ time: 1 }], { createTable: true });
    // The data: the database's DuckDB file on the embedded backend, its schema on PostgreSQL.
    const dataExists = async () => {
      if (h.deps.storage.backend === 'sqlite') {
        return existsSync(duckFile(h.dataDir, h.admin.accountId, database.id));
      }
      const found = await one(
        h.deps.storage.db,
        sql`SELECT 1 AS one FROM information_schema.schemata WHERE schema_name = ${customerSchema(database.id)}`,
      );
      return found !== undefined;
    };
    expect(await dataExists()).toBe(true);
    const res = await h.call('POST', '/v3/database/delete/web_events');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ database: 'web_events' });
    expect(await dataExists()).toBe(false);
    expect((await h.call('GET', '/v3/table/list/web_events')).status).toBe(404);
    const count = await one<{ n: number }>(
      h.deps.storage.db,
      sql`SELECT COUNT(*) AS n FROM tables WHERE database_id = ${database.id}`,
    );
    expect(Number(count?.n)).toBe(0);
  });

  it('refuses to delete a delete-protected database until protection is turned off', async () => {
    await create('web_events');
    const on = await h.call('POST', '/v3/database/update/web_events', { form: { delete_protected: 'true' } });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ name: 'web_events', delete_protected: true });
    const refused = await h.call('POST', '/v3/database/delete/web_events');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain('delete-protected');
    const off = await h.call('POST', '/v3/database/update/web_events', { json: { delete_protected: false } });
    expect(off.status).toBe(200);
    expect((await h.call('POST', '/v3/database/delete/web_events')).status).toBe(200);
  });

  it('refuses a delete_protected value that is not a boolean', async () => {
    await create('web_events');
    const missing = await h.call('POST', '/v3/database/update/web_events', { form: {} });
    const wrong = await h.call('POST', '/v3/database/update/web_events', { form: { delete_protected: 'maybe' } });
    expect([missing.status, wrong.status]).toEqual([400, 400]);
    expect(((await wrong.json()) as { message: string }).message).toContain('true or false');
  });

  it('refuses every database route to a write-only key with 403', async () => {
    await create('web_events');
    const key = h.admin.writeOnlyKey;
    const calls = [
      h.call('POST', '/v3/database/create/more_events', { key }),
      h.call('GET', '/v3/database/list', { key }),
      h.call('GET', '/v3/database/show/web_events', { key }),
      h.call('POST', '/v3/database/delete/web_events', { key }),
    ];
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual([403, 403, 403, 403]);
  });

  it('refuses a call without a valid key with 401', async () => {
    expect((await h.call('GET', '/v3/database/list', { key: null })).status).toBe(401);
    expect((await h.call('GET', '/v3/database/list', { key: `1/${'0'.repeat(40)}` })).status).toBe(401);
  });

  it('documents its routes in /openapi.json', async () => {
    const doc = (await (await h.call('GET', '/openapi.json', { key: null })).json()) as { paths: object };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v3/database/list',
        '/v3/database/show/{db}',
        '/v3/database/create/{db}',
        '/v3/database/update/{db}',
        '/v3/database/delete/{db}',
      ]),
    );
  });
});
