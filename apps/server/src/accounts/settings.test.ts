import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleCall, signIn } from '../session/testClient';
import { createHarness, type Harness } from '../testing/harness';

/** The account's settings: every user reads them, administrators change them. */
describe('/console-api/account/settings', () => {
  let h: Harness;
  let cookie: string;
  let annCookie: string;
  const call = (method: string, path: string, as: string, json?: unknown) =>
    consoleCall(h, method, path, { cookie: as, ...(json === undefined ? {} : { json }) });
  const settingsOf = async (as: string) =>
    ((await (await call('GET', '/console-api/account/settings', as)).json()) as { settings: unknown }).settings;

  beforeEach(async () => {
    h = await createHarness();
    cookie = await signIn(h);
    await call('POST', '/console-api/users', cookie, {
      name: 'ann',
      email: 'ann@first.test',
      password: 'long enough pw',
    });
    annCookie = await signIn(h, 'ann@first.test', 'long enough pw');
  });
  afterEach(() => h.close());

  it('starts members at View, and an administrator can change it for everyone', async () => {
    expect(await settingsOf(annCookie)).toEqual({ defaultFolderPermission: 'view' });
    const res = await call('PATCH', '/console-api/account/settings', cookie, {
      defaultFolderPermission: 'full_control',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ settings: { defaultFolderPermission: 'full_control' } });
    expect(await settingsOf(annCookie)).toEqual({ defaultFolderPermission: 'full_control' });
    const other = await h.newAccount('Other');
    expect(await settingsOf(await signIn(h, other.email))).toEqual({ defaultFolderPermission: 'view' });
  });

  it('refuses members and values it does not know', async () => {
    const member = await call('PATCH', '/console-api/account/settings', annCookie, {
      defaultFolderPermission: 'full_control',
    });
    expect(member.status).toBe(403);
    const bad = await call('PATCH', '/console-api/account/settings', cookie, { defaultFolderPermission: 'owner' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('defaultFolderPermission');
    expect(await settingsOf(cookie)).toEqual({ defaultFolderPermission: 'view' });
  });
});
