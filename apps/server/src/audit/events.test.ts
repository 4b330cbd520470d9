import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureSso, createSsoUser, postToAcs, startLogin } from '../sso/testing/ssoFlow';
import { readAuthnRequest, TestIdp } from '../sso/testing/testIdp';
import { consoleCall, sessionCookieFrom, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { expectOneEntry, storedEntries } from './testing/entries';

/**
 * Issue 20, point 4: every administrative and security event of users, keys, sign-ins, passwords, SSO and
 * account settings writes exactly one audit entry (journeys, folders and warehouses: featureEvents.test.ts).
 */
describe('audit entries of users, keys, sign-ins and SSO', () => {
  let h: Harness;
  let cookie: string;
  const ANN = 'ann@first.test';
  const ANN_PASSWORD = 'long enough pw';
  const ok = async (res: Response | Promise<Response>) => {
    const r = await res;
    expect(r.status, await r.clone().text()).toBe(200);
    return r;
  };
  const consoleOk = (method: string, path: string, json?: unknown, as = cookie) =>
    ok(consoleCall(h, method, path, { cookie: as, ...(json === undefined ? {} : { json }) }));
  const addAnn = async () => {
    const res = await consoleOk('POST', '/console-api/users', { name: 'Ann', email: ANN, password: ANN_PASSWORD });
    return ((await res.json()) as { user: { id: number } }).user.id;
  };

  beforeEach(async () => {
    h = await createHarness();
    // SAML assertions carry real timestamps; the server's clock must agree with them.
    h.clock.set(Date.now());
    cookie = await signIn(h);
  });
  afterEach(() => h.close());

  it('users added, renamed, given another role and removed', async () => {
    const added = await expectOneEntry(h, 'user.create', () => addAnn());
    expect(added).toMatchObject({ actor: h.admin.email, target: ANN, details: { role: 'member', via: 'console' } });
    const annId = Number(added.details?.user_id);
    await expectOneEntry(h, 'user.create', () =>
      ok(h.call('POST', '/v3/user/add/bob', { form: { email: 'bob@first.test', password: ANN_PASSWORD } })),
    );

    const renamed = await expectOneEntry(h, 'user.update', () =>
      consoleOk('PATCH', `/console-api/users/${annId}`, { name: 'Ann Lee' }),
    );
    expect(renamed.details).toMatchObject({ name: { from: 'Ann', to: 'Ann Lee' } });
    const promoted = await expectOneEntry(h, 'user.role_change', () =>
      consoleOk('PATCH', `/console-api/users/${annId}`, { administrator: true }),
    );
    expect(promoted).toMatchObject({ target: ANN, details: { from: 'member', to: 'administrator' } });

    // Two changes at once are two events; no change is none.
    const before = (await storedEntries(h)).length;
    await consoleOk('PATCH', `/console-api/users/${annId}`, { name: 'Ann', administrator: false });
    await consoleOk('PATCH', `/console-api/users/${annId}`, { name: 'Ann', administrator: false });
    expect((await storedEntries(h)).slice(before).map((e) => e.action)).toEqual(['user.update', 'user.role_change']);

    await expectOneEntry(h, 'user.remove', () => consoleOk('DELETE', `/console-api/users/${annId}`));
    const removed = await expectOneEntry(h, 'user.remove', () => ok(h.call('POST', '/v3/user/remove/bob')));
    expect(removed).toMatchObject({ target: 'bob@first.test', details: { name: 'bob', role: 'member' } });
  });

  it('keys created and revoked, with their id and name but never the secret', async () => {
    await addAnn();
    let secret = '';
    const created = await expectOneEntry(h, 'api_key.create', async () => {
      const res = await consoleOk('POST', '/console-api/api-keys', {
        name: 'Reporting',
        type: 'master',
        expiresAt: '2027-01-31T00:00:00Z',
      });
      secret = ((await res.json()) as { key: string }).key;
    });
    const [id, hex] = secret.split('/') as [string, string];
    expect(created).toMatchObject({
      actor: h.admin.email,
      target: h.admin.email,
      details: { key_id: Number(id), name: 'Reporting', type: 'master', expires_at: '2027-01-31T00:00:00.000Z' },
    });
    expect(JSON.stringify(created)).not.toContain(hex);
    expect(JSON.stringify(created)).not.toContain(hex.slice(0, 8));

    let annKey = '';
    const forAnn = await expectOneEntry(h, 'api_key.create', async () => {
      const res = await ok(h.call('POST', `/v3/user/apikey/add/${ANN}`, { form: { type: 'write-only' } }));
      annKey = ((await res.json()) as { apikey: string }).apikey;
    });
    expect(forAnn).toMatchObject({
      target: ANN,
      details: { type: 'write-only', name: 'Created with /v3/user/apikey/add' },
    });
    expect(JSON.stringify(forAnn)).not.toContain(annKey.split('/')[1]);

    await expectOneEntry(h, 'api_key.revoke', () => consoleOk('DELETE', `/console-api/api-keys/${id}`));
    const revoked = await expectOneEntry(h, 'api_key.revoke', () =>
      ok(h.call('POST', `/v3/user/apikey/remove/${ANN}`, { form: { apikey: annKey } })),
    );
    expect(revoked).toMatchObject({ target: ANN, details: { key_id: Number(annKey.split('/')[0]) } });
    expect(JSON.stringify(await storedEntries(h))).not.toContain(annKey.split('/')[1]);
  });

  it('password sign-ins and their refusals, throttling, and password changes', async () => {
    await addAnn();
    const signedIn = await expectOneEntry(h, 'user.sign_in', () => signIn(h, ANN, ANN_PASSWORD));
    expect(signedIn).toMatchObject({ actor: ANN, outcome: 'success', reason: null, details: { method: 'password' } });
    const wrong = await expectOneEntry(h, 'user.sign_in', async () => {
      const res = await consoleCall(h, 'POST', '/console-api/login', { json: { email: ANN, password: 'nope nope' } });
      expect(res.status).toBe(401);
    });
    expect(wrong).toMatchObject({ outcome: 'failure', reason: 'wrong_password' });

    // An e-mail of no user belongs to no account: nothing is written anywhere.
    const everything = async () => (await storedEntries(h)).length;
    const count = await everything();
    await consoleCall(h, 'POST', '/console-api/login', { json: { email: 'nobody@first.test', password: 'x' } });
    expect(await everything()).toBe(count);

    const annCookie = await signIn(h, ANN, ANN_PASSWORD);
    const changed = await expectOneEntry(h, 'user.password_change', () =>
      consoleOk(
        'POST',
        '/console-api/me/password',
        { currentPassword: ANN_PASSWORD, newPassword: 'another long pw' },
        annCookie,
      ),
    );
    expect(changed).toMatchObject({ actor: ANN, target: ANN });

    // The failure that reaches the backoff is a refusal and a throttling event: two events, one entry each.
    const fail = () =>
      consoleCall(h, 'POST', '/console-api/login', {
        json: { email: ANN, password: 'wrong again' },
        address: '203.0.113.9',
      });
    for (let i = 0; i < 4; i++) await fail();
    const before = (await storedEntries(h)).length;
    await fail();
    expect((await storedEntries(h)).slice(before).map((e) => [e.action, e.reason])).toEqual([
      ['user.sign_in', 'wrong_password'],
      ['user.login_throttled', 'too_many_failed_passwords'],
    ]);
  });

  it('SSO: the setting, user modes, SSO sign-ins, Test SSO and refusals of password sign-in', async () => {
    const idp = await TestIdp.create();
    await expectOneEntry(h, 'sso_setting.create', () => configureSso(h, idp));
    await expectOneEntry(h, 'sso_setting.update', () =>
      ok(h.call('PUT', '/v3/account/sso_setting', { json: { sso_setting: { identity_provider_name: 'Okta' } } })),
    );
    await expectOneEntry(h, 'user.create_with_sso', () => createSsoUser(h, 'sso@first.test', 'sso-1'));
    await addAnn();
    const mode = (op: string, identifier?: string) =>
      ok(h.call('POST', `/v3/user/${op}/${ANN}`, { json: { sso_setting: { user_email: ANN, identifier } } }));
    await expectOneEntry(h, 'user.enable_sso', () => mode('enable_sso', 'ann-1'));
    await expectOneEntry(h, 'user.enforce_sso', () => mode('enforce_sso', 'ann-1'));
    const refused = await expectOneEntry(h, 'user.sign_in', async () => {
      const res = await consoleCall(h, 'POST', '/console-api/login', { json: { email: ANN, password: ANN_PASSWORD } });
      expect(res.status).toBe(403);
    });
    expect(refused).toMatchObject({ outcome: 'failure', reason: 'sso_enforced' });

    const sso = await expectOneEntry(h, 'sso.sign_in', async () => {
      const req = await startLogin(h);
      const response = await idp.respond({
        nameId: 'ann-1',
        inResponseTo: req.id,
        acsUrl: req.acsUrl,
        audience: req.issuer,
      });
      const res = await postToAcs(h, req.acsUrl, response, req.relayState);
      expect(sessionCookieFrom(res)).not.toBeNull();
    });
    expect(sso).toMatchObject({ actor: ANN, outcome: 'success' });
    await expectOneEntry(h, 'sso.test', async () => {
      const start = await h.app.request('/sso/saml/test', { headers: { cookie } });
      const req = readAuthnRequest(start.headers.get('location') ?? '');
      const response = await idp.respond({
        nameId: 'nobody',
        inResponseTo: req.id,
        acsUrl: req.acsUrl,
        audience: req.issuer,
      });
      expect((await postToAcs(h, req.acsUrl, response, req.relayState)).status).toBe(303);
    });

    await expectOneEntry(h, 'user.disable_sso', () => mode('disable_sso'));
    await ok(
      h.call('POST', '/v3/user/enable_sso/sso@first.test', {
        json: { sso_setting: { user_email: 'sso@first.test', identifier: 'sso-1' } },
      }),
    );
    await expectOneEntry(h, 'sso_setting.delete', () => ok(h.call('DELETE', '/v3/account/sso_setting')));
    // The password sign-in the administrator began with is in the log too, once.
    expect(
      (await storedEntries(h)).filter((e) => e.action === 'user.sign_in' && e.actor === h.admin.email),
    ).toHaveLength(1);
  });

  it('account settings: a change of the default folder permission, and no entry for no change', async () => {
    const changed = await expectOneEntry(h, 'account.settings_change', () =>
      consoleOk('PATCH', '/console-api/account/settings', { defaultFolderPermission: 'full_control' }),
    );
    expect(changed.details).toMatchObject({ setting: 'default_folder_permission', from: 'view', to: 'full_control' });
    const count = (await storedEntries(h)).length;
    await consoleOk('PATCH', '/console-api/account/settings', { defaultFolderPermission: 'full_control' });
    expect(await storedEntries(h)).toHaveLength(count);
  });
});
