import type { ConsoleUser } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { many, sql } from '../platform/storage';
import { consoleCall, sessionCookieFrom, signIn } from '../session/testClient';
import { configureSso } from '../sso/testing/ssoFlow';
import { TestIdp } from '../sso/testing/testIdp';
import { createHarness, type Harness } from '../testing/harness';

/** Administrators edit users (name, role) under the lock-out guard; a privilege change rotates sessions. */
describe('editing users', () => {
  let h: Harness;
  let cookie: string;
  const PASSWORD = 'long enough pw';
  const call = (method: string, path: string, json?: unknown, as: string | null = cookie) =>
    consoleCall(h, method, path, { cookie: as, ...(json === undefined ? {} : { json }) });
  const add = async (name: string, administrator = false) => {
    const res = await call('POST', '/console-api/users', {
      name,
      email: `${name}@first.test`,
      password: PASSWORD,
      administrator,
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { user: ConsoleUser }).user;
  };
  const patch = (id: number, json: unknown, as = cookie) => call('PATCH', `/console-api/users/${id}`, json, as);
  const message = async (res: Response) => ((await res.json()) as { message: string }).message;
  const me = async (as: string | null) => {
    const res = await call('GET', '/console-api/me', undefined, as);
    return res.status === 200 ? ((await res.json()) as { user: { administrator: boolean } }).user : res.status;
  };

  beforeEach(async () => {
    h = await createHarness();
    cookie = await signIn(h);
  });
  afterEach(() => h.close());

  it('renames a user and changes their role, and the API sees the new role at once', async () => {
    const ann = await add('ann');
    const res = await patch(ann.id, { name: 'Ann Lee', administrator: true });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: ConsoleUser }).user).toMatchObject({ name: 'Ann Lee', administrator: true });
    const key = (await (await h.call('POST', '/v3/user/apikey/add/ann@first.test')).json()) as { apikey: string };
    expect(await (await h.call('GET', '/v3/user/show', { key: key.apikey })).json()).toMatchObject({
      name: 'Ann Lee',
      administrator: true,
    });
    expect((await patch(ann.id, { administrator: false })).status).toBe(200);
    expect(await (await h.call('GET', '/v3/user/apikey/validate', { key: key.apikey })).json()).toMatchObject({
      administrator: false,
    });
  });

  it('refuses bad edits with a message to act on', async () => {
    const ann = await add('ann');
    await add('bob');
    const empty = await patch(ann.id, {});
    expect(empty.status).toBe(400);
    expect(await message(empty)).toContain('Send "name", "administrator" or both');
    expect(await message(await patch(ann.id, { name: '  ' }))).toContain('Enter a name.');
    expect((await patch(ann.id, { administrator: 'yes' })).status).toBe(400);
    const taken = await patch(ann.id, { name: 'bob' });
    expect(taken.status).toBe(409);
    expect(await message(taken)).toContain('"bob" already exists');
    const other = await h.newAccount('Other');
    const foreign = await patch(other.userId, { name: 'x' });
    expect(foreign.status).toBe(404);
    expect((await patch(99_999, { name: 'x' })).status).toBe(404);
  });

  it('is for administrators: a member cannot edit anyone, themself included', async () => {
    const ann = await add('ann');
    const annCookie = await signIn(h, 'ann@first.test', PASSWORD);
    for (const id of [ann.id, h.admin.userId]) {
      const res = await patch(id, { administrator: true }, annCookie);
      expect(res.status).toBe(403);
      expect(await message(res)).toContain('Only an administrator');
    }
    expect(await me(annCookie)).toMatchObject({ administrator: false });
  });

  it('never leaves the account without an administrator able to sign in', async () => {
    const lastOne = await patch(h.admin.userId, { administrator: false });
    expect(lastOne.status).toBe(409);
    expect(await message(lastOne)).toContain('no administrator able to sign in');
    expect(await message(await patch(h.admin.userId, { administrator: false }))).toContain(
      'Make another user who can sign in an administrator first.',
    );
    // With a second administrator who can sign in, stepping down is allowed.
    await add('bob', true);
    expect((await patch(h.admin.userId, { administrator: false })).status).toBe(200);
  });

  it('refuses to remove the last administrator able to sign in, even for a caller who still has a key', async () => {
    const bob = await add('bob', true);
    const idp = await TestIdp.create();
    await configureSso(h, idp);
    // The owner's only way in becomes SSO, which has not passed Test SSO: Bob is the one who can sign in.
    const enforce = await h.call('POST', `/v3/user/enforce_sso/${h.admin.email}`, {
      json: { sso_setting: { user_email: h.admin.email, identifier: 'owner-1' } },
    });
    expect(enforce.status).toBe(200);
    const v3 = await h.call('POST', '/v3/user/remove/bob');
    expect(v3.status).toBe(409);
    expect(await message(v3)).toContain('bob@first.test is the last one who can, and they would be removed');
    const users = (await (await h.call('GET', '/v3/user/list')).json()) as { users: { id: number }[] };
    expect(users.users.map((u) => u.id)).toContain(bob.id);
  });

  it('ends every session of a user whose role changes (issue 22)', async () => {
    const ann = await add('ann');
    const first = await signIn(h, 'ann@first.test', PASSWORD);
    const second = await signIn(h, 'ann@first.test', PASSWORD);
    expect(await me(first)).toMatchObject({ administrator: false });

    // A rename is no privilege change: her sessions go on.
    expect((await patch(ann.id, { name: 'Ann Lee' })).status).toBe(200);
    expect(await me(first)).toMatchObject({ administrator: false });

    const promoted = await patch(ann.id, { administrator: true });
    expect(sessionCookieFrom(promoted)).toBeNull(); // the administrator's own session is untouched
    expect(await me(first)).toBe(401);
    expect(await me(second)).toBe(401);
    // Ended, not merely out of date: were the role changed back, they would still not count.
    const open = await many(
      h.deps.storage.db,
      sql`SELECT 1 AS open FROM console_sessions WHERE user_id = ${ann.id} AND revoked_at IS NULL`,
    );
    expect(open).toEqual([]);
    expect((await patch(ann.id, { administrator: false })).status).toBe(200);
    expect(await me(first)).toBe(401);
    expect((await patch(ann.id, { administrator: true })).status).toBe(200);
    expect(await me(await signIn(h, 'ann@first.test', PASSWORD))).toMatchObject({ administrator: true });
  });

  it('gives the caller a new session id when their own privilege changes, and ends their other sessions', async () => {
    await add('bob', true);
    const elsewhere = await signIn(h);
    const res = await patch(h.admin.userId, { administrator: false });
    expect(res.status).toBe(200);
    const rotated = sessionCookieFrom(res);
    expect(rotated).not.toBeNull();
    expect(rotated).not.toBe(cookie);
    expect(await me(cookie)).toBe(401);
    expect(await me(elsewhere)).toBe(401);
    expect(await me(rotated)).toMatchObject({ administrator: false });
    // The new session carries the new privilege: administrator routes now refuse it.
    expect((await call('GET', '/console-api/users', undefined, rotated)).status).toBe(403);
  });
});
