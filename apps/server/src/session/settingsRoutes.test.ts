import type { ConsoleApiKey, ConsoleUser } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { consoleCall, signIn } from './testClient';

describe('console settings routes', () => {
  let h: Harness;
  let cookie: string;
  beforeEach(async () => {
    h = await createHarness();
    cookie = await signIn(h);
  });
  afterEach(() => h.close());

  const call = (method: string, path: string, json?: unknown, as = cookie) =>
    consoleCall(h, method, path, { cookie: as, ...(json !== undefined ? { json } : {}) });
  const addMember = async (administrator = false) => {
    const res = await call('POST', '/console-api/users', {
      name: 'Ann Lee',
      email: 'ann@first.test',
      password: 'long enough pw',
      administrator,
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { user: ConsoleUser }).user;
  };

  describe('users', () => {
    it('lists the account’s users', async () => {
      const res = await call('GET', '/console-api/users');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        users: [
          {
            id: h.admin.userId,
            name: 'admin',
            email: h.admin.email,
            administrator: true,
            accountOwner: true,
            createdAt: '2026-11-22T09:00:00.000Z',
            ssoMode: 'disabled',
            ssoIdentifier: null,
          },
        ],
      });
    });

    it('adds a user who can then sign in', async () => {
      const user = await addMember();
      expect(user).toMatchObject({
        name: 'Ann Lee',
        email: 'ann@first.test',
        administrator: false,
        accountOwner: false,
      });
      const annCookie = await signIn(h, 'ann@first.test', 'long enough pw');
      const me = await call('GET', '/console-api/me', undefined, annCookie);
      expect(await me.json()).toMatchObject({ user: { id: user.id, administrator: false } });
    });

    it('refuses bad input with the contract’s messages, and duplicates with 409', async () => {
      const bad = await call('POST', '/console-api/users', { name: '', email: 'nope', password: 'short' });
      expect(bad.status).toBe(400);
      const { message } = (await bad.json()) as { message: string };
      expect(message).toContain('Enter a name.');
      expect(message).toContain('Enter a valid e-mail address.');
      await addMember();
      const again = await call('POST', '/console-api/users', {
        name: 'Someone',
        email: 'ann@first.test',
        password: 'long enough pw',
      });
      expect(again.status).toBe(409);
    });

    it('removes a user, but not yourself nor the owner', async () => {
      const ann = await addMember(true);
      const annCookie = await signIn(h, 'ann@first.test', 'long enough pw');
      expect((await call('DELETE', `/console-api/users/${ann.id}`, undefined, annCookie)).status).toBe(403);
      expect((await call('DELETE', `/console-api/users/${h.admin.userId}`, undefined, annCookie)).status).toBe(403);
      expect((await call('DELETE', `/console-api/users/${h.admin.userId}`)).status).toBe(403);
      const res = await call('DELETE', `/console-api/users/${ann.id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect((await call('GET', '/console-api/me', undefined, annCookie)).status).toBe(401);
    });

    it('is for administrators only', async () => {
      await addMember(false);
      const annCookie = await signIn(h, 'ann@first.test', 'long enough pw');
      const calls = [
        call('GET', '/console-api/users', undefined, annCookie),
        call('POST', '/console-api/users', { name: 'B', email: 'b@first.test', password: 'long enough pw' }, annCookie),
        call('DELETE', `/console-api/users/${h.admin.userId}`, undefined, annCookie),
      ];
      expect((await Promise.all(calls)).map((r) => r.status)).toEqual([403, 403, 403]);
    });

    it('answers 404 for a user of another account and for a bad id 400', async () => {
      const other = await h.newAccount('Other');
      const foreign = await call('DELETE', `/console-api/users/${other.userId}`);
      const missing = await call('DELETE', '/console-api/users/99999');
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toEqual(await missing.json());
      const bad = await call('DELETE', '/console-api/users/abc');
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { message: string }).message).toContain('whole number');
    });
  });

  describe('API keys', () => {
    it('lists the signed-in user’s keys masked, with ISO times', async () => {
      const res = await call('GET', '/console-api/api-keys');
      expect(res.status).toBe(200);
      const { apiKeys } = (await res.json()) as { apiKeys: ConsoleApiKey[] };
      expect(apiKeys.map((k) => k.type)).toEqual(['master', 'write-only']);
      expect(apiKeys[0]).toEqual({
        id: Number(h.admin.masterKey.split('/')[0]),
        name: 'First master key',
        type: 'master',
        masked: `${h.admin.masterKey.split('/')[0]}/••••••••${h.admin.masterKey.slice(-4)}`,
        createdAt: '2026-11-22T09:00:00.000Z',
        lastUsedAt: null,
        expiresAt: null,
        expired: false,
        userId: h.admin.userId,
        ownerEmail: h.admin.email,
      });
    });

    it('shows when a key was last used', async () => {
      h.clock.advance(60_000);
      await h.call('GET', '/v3/user/show');
      const { apiKeys } = (await (await call('GET', '/console-api/api-keys')).json()) as { apiKeys: ConsoleApiKey[] };
      expect(apiKeys[0]?.lastUsedAt).toBe('2026-11-22T09:01:00.000Z');
    });

    it('creates a key, shows it whole once, and masked afterwards', async () => {
      const res = await call('POST', '/console-api/api-keys', { type: 'write-only', name: ' Web SDK ' });
      expect(res.status).toBe(200);
      const { apiKey, key } = (await res.json()) as { apiKey: ConsoleApiKey; key: string };
      expect(key).toMatch(/^\d+\/[0-9a-f]{40}$/);
      expect(apiKey).toMatchObject({
        id: Number(key.split('/')[0]),
        name: 'Web SDK',
        type: 'write-only',
        lastUsedAt: null,
        expiresAt: null,
      });
      const listing = await (await call('GET', '/console-api/api-keys')).text();
      expect(listing).toContain(apiKey.masked);
      expect(listing).not.toContain(key.split('/')[1]);
      // Live and write-only: known (not 401) but refused outside the import routes.
      expect((await h.call('GET', '/v3/user/show', { key })).status).toBe(403);
    });

    it('refuses an unknown key type', async () => {
      const res = await call('POST', '/console-api/api-keys', { type: 'admin', name: 'x' });
      expect(res.status).toBe(400);
    });

    it('revokes one of your keys; a member cannot revoke another user’s (404)', async () => {
      const created = await call('POST', '/console-api/api-keys', { type: 'master', name: 'Backup job' });
      const { apiKey, key } = (await created.json()) as { apiKey: ConsoleApiKey; key: string };
      await addMember(false);
      const annCookie = await signIn(h, 'ann@first.test', 'long enough pw');
      expect((await call('DELETE', `/console-api/api-keys/${apiKey.id}`, undefined, annCookie)).status).toBe(404);
      const res = await call('DELETE', `/console-api/api-keys/${apiKey.id}`);
      expect(res.status).toBe(200);
      expect((await h.call('GET', '/v3/user/show', { key })).status).toBe(401);
      const again = await call('DELETE', `/console-api/api-keys/${apiKey.id}`);
      expect(again.status).toBe(404);
    });

    it('answers 401 to every settings route without a session', async () => {
      const statuses = await Promise.all(
        [
          ['GET', '/console-api/users'],
          ['POST', '/console-api/users'],
          ['DELETE', '/console-api/users/1'],
          ['GET', '/console-api/api-keys'],
          ['POST', '/console-api/api-keys'],
          ['DELETE', '/console-api/api-keys/1'],
        ].map(async ([method, path]) => (await consoleCall(h, method as string, path as string)).status),
      );
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    });
  });
});
