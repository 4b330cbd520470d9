import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backendOf, one, run, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';

interface WireUser {
  id: number;
  name: string;
  email: string;
  administrator: boolean;
  account_owner: boolean;
  created_at: string;
}

describe('/v3 account and users', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const addUser = (name: string, params: Record<string, string>, key?: string) =>
    h.call('POST', `/v3/user/add/${encodeURIComponent(name)}`, { form: params, ...(key ? { key } : {}) });

  describe('GET /v3/account/show', () => {
    it('answers the caller’s account with string timestamps', async () => {
      const res = await h.call('GET', '/v3/account/show');
      expect(res.status).toBe(200);
      const { account } = (await res.json()) as { account: Record<string, unknown> };
      expect(account).toMatchObject({ id: h.admin.accountId, plan: 0, storage_size: 0, guaranteed_cores: 1 });
      expect(account.created_at).toBe('2026-11-22T09:00:00Z');
      expect(account.maximum_cores).toBeGreaterThanOrEqual(1);
    });

    it('counts the bytes of the account’s database files as its storage size', async () => {
      const folder = join(h.dataDir, 'databases', String(h.admin.accountId));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, '1.sqlite'), Buffer.alloc(4096));
      writeFileSync(join(folder, '1.sqlite-wal'), Buffer.alloc(100));
      const { account } = (await (await h.call('GET', '/v3/account/show')).json()) as {
        account: { storage_size: number };
      };
      expect(account.storage_size).toBe(4196);
    });

    it('refuses a write-only key with 403', async () => {
      const res = await h.call('GET', '/v3/account/show', { key: h.admin.writeOnlyKey });
      expect(res.status).toBe(403);
    });
  });

  describe('GET /v3/user/show', () => {
    it('answers the calling user with the OAS User fields', async () => {
      const res = await h.call('GET', '/v3/user/show');
      expect(res.status).toBe(200);
      const user = (await res.json()) as Record<string, unknown>;
      expect(user).toMatchObject({
        id: h.admin.userId,
        name: 'admin',
        first_name: 'Admin',
        last_name: null,
        email: h.admin.email,
        phone: null,
        administrator: true,
        account_owner: true,
        created_at: '2026-11-22T09:00:00Z',
        updated_at: '2026-11-22T09:00:00Z',
        identifier: null,
        full_qualified_identifier: null,
        setting_name: null,
      });
      expect(user.gravatar_url).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}$/);
    });

    it('answers 401 without a key', async () => {
      expect((await h.call('GET', '/v3/user/show', { key: null })).status).toBe(401);
    });
  });

  describe('GET /v3/user/list', () => {
    it('lists every user of the account and no one else', async () => {
      await h.newAccount('Other');
      await addUser('ann', { email: 'ann@first.test', password: 'long enough pw' });
      const res = await h.call('GET', '/v3/user/list');
      expect(res.status).toBe(200);
      const { users } = (await res.json()) as { users: WireUser[] };
      expect(users.map((u) => u.email)).toEqual([h.admin.email, 'ann@first.test']);
    });

    it('refuses a write-only key with 403', async () => {
      const res = await h.call('GET', '/v3/user/list', { key: h.admin.writeOnlyKey });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ status_code: 403, message: expect.stringContaining('write-only') });
    });
  });

  describe('POST /v3/user/add/:name', () => {
    it('adds a user from form parameters', async () => {
      const res = await addUser('ann', { email: 'ann@first.test', password: 'long enough pw', administrator: 'true' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ name: 'ann', email: 'ann@first.test', administrator: true });
    });

    it('takes its parameters as JSON, multipart or the query string too', async () => {
      const json = await h.call('POST', '/v3/user/add/bob', {
        json: { email: 'bob@first.test', password: 'long enough pw' },
      });
      const form = new FormData();
      form.set('email', 'cy@first.test');
      form.set('password', 'long enough pw');
      const multipart = await h.call('POST', '/v3/user/add/cy', { body: form });
      const query = await h.call('POST', '/v3/user/add/di?email=di%40first.test&password=long+enough+pw');
      expect([json.status, multipart.status, query.status]).toEqual([200, 200, 200]);
      expect(await json.json()).toMatchObject({ name: 'bob', administrator: false });
    });

    it('lets the new user sign in with their own key', async () => {
      await addUser('ann', { email: 'ann@first.test', password: 'long enough pw' });
      const key = (await (await h.call('POST', '/v3/user/apikey/add/ann@first.test')).json()) as { apikey: string };
      const me = await h.call('GET', '/v3/user/show', { key: key.apikey });
      expect(await me.json()).toMatchObject({ email: 'ann@first.test', administrator: false, account_owner: false });
    });

    it('takes an 8-character password, as td user:create -R generates, and refuses a common one', async () => {
      const res = await addUser('gen', { email: 'gen@first.test', password: 'k3Jq9xZp' });
      expect(res.status).toBe(200);
      const common = await addUser('com', { email: 'com@first.test', password: '12345678' });
      expect(common.status).toBe(400);
      expect(((await common.json()) as { message: string }).message).toContain('too common');
    });

    it('names each bad parameter in a 400', async () => {
      const res = await addUser('ann', { email: 'not-an-email', password: 'short' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body.message).toContain('Enter a valid e-mail address.');
      expect(body.message).toContain('Use at least 8 characters for the password.');
    });

    it('refuses an e-mail address already in use with 409', async () => {
      const res = await addUser('ann', { email: h.admin.email, password: 'long enough pw' });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { message: string }).message).toContain('already exists');
    });

    it('refuses a name already used in the account with 409', async () => {
      const res = await addUser('admin', { email: 'other@first.test', password: 'long enough pw' });
      expect(res.status).toBe(409);
    });

    it('is for administrators only', async () => {
      await addUser('ann', { email: 'ann@first.test', password: 'long enough pw' });
      const { apikey } = (await (await h.call('POST', '/v3/user/apikey/add/ann')).json()) as { apikey: string };
      const res = await addUser('bob', { email: 'bob@first.test', password: 'long enough pw' }, apikey);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toContain('administrator');
    });
  });

  describe('POST /v3/user/remove/:name', () => {
    it('removes a user by name, with their keys', async () => {
      await addUser('ann', { email: 'ann@first.test', password: 'long enough pw' });
      const { apikey } = (await (await h.call('POST', '/v3/user/apikey/add/ann')).json()) as { apikey: string };
      const res = await h.call('POST', '/v3/user/remove/ann');
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ name: 'ann', email: 'ann@first.test' });
      const { users } = (await (await h.call('GET', '/v3/user/list')).json()) as { users: WireUser[] };
      expect(users.map((u) => u.name)).toEqual(['admin']);
      expect((await h.call('GET', '/v3/user/show', { key: apikey })).status).toBe(401);
    });

    it('accepts the e-mail address in place of the name', async () => {
      await addUser('ann', { email: 'ann@first.test', password: 'long enough pw' });
      expect((await h.call('POST', '/v3/user/remove/ann%40first.test')).status).toBe(200);
    });

    it('will not remove yourself', async () => {
      await addUser('ann', { email: 'ann@first.test', password: 'long enough pw', administrator: 'true' });
      const { apikey } = (await (await h.call('POST', '/v3/user/apikey/add/ann')).json()) as { apikey: string };
      const res = await h.call('POST', '/v3/user/remove/ann', { key: apikey });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(
        'You cannot remove yourself. Ask another administrator to do it.',
      );
    });

    it('will not remove the account owner', async () => {
      await addUser('ann', { email: 'ann@first.test', password: 'long enough pw', administrator: 'true' });
      const { apikey } = (await (await h.call('POST', '/v3/user/apikey/add/ann')).json()) as { apikey: string };
      const res = await h.call('POST', '/v3/user/remove/admin', { key: apikey });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe('The account owner cannot be removed.');
    });

    it('is for administrators only', async () => {
      await addUser('ann', { email: 'ann@first.test', password: 'long enough pw' });
      await addUser('bob', { email: 'bob@first.test', password: 'long enough pw' });
      const { apikey } = (await (await h.call('POST', '/v3/user/apikey/add/ann')).json()) as { apikey: string };
      expect((await h.call('POST', '/v3/user/remove/bob', { key: apikey })).status).toBe(403);
    });

    it('answers 409, not 500, while rows of another feature still point at the user', async () => {
      await addUser('ann', { email: 'ann@first.test', password: 'long enough pw' });
      const db = h.deps.storage.db;
      const ann = (await one<{ id: number; account_id: number }>(
        db,
        sql`SELECT id, account_id FROM users WHERE name = 'ann'`,
      )) as { id: number; account_id: number };
      // A foreign key as each backend's schema allows one to users (on PostgreSQL their key includes the account).
      await sql
        .raw(
          backendOf(db) === 'postgres'
            ? 'CREATE TABLE owned_things (account_id BIGINT NOT NULL, user_id BIGINT NOT NULL, FOREIGN KEY (account_id, user_id) REFERENCES users(account_id, id))'
            : 'CREATE TABLE owned_things (account_id INTEGER NOT NULL, user_id INTEGER NOT NULL REFERENCES users(id))',
        )
        .execute(db);
      await run(db, sql`INSERT INTO owned_things (account_id, user_id) VALUES (${ann.account_id}, ${ann.id})`);
      const res = await h.call('POST', '/v3/user/remove/ann');
      expect(res.status).toBe(409);
      expect(((await res.json()) as { message: string }).message).toContain('still owns objects');
    });

    it('answers 404 for a user of another account, exactly as for a missing one', async () => {
      const other = await h.newAccount('Other');
      const foreign = await h.call('POST', `/v3/user/remove/${encodeURIComponent(other.email)}`);
      const missing = await h.call('POST', '/v3/user/remove/nobody');
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toEqual(await missing.json());
      const stillThere = await h.call('GET', '/v3/user/show', { key: other.masterKey });
      expect(stillThere.status).toBe(200);
    });
  });
});
