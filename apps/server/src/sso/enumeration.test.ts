import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleCall, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { configureSso, createSsoUser } from './testing/ssoFlow';
import { TestIdp } from './testing/testIdp';

/** Pairs of probes that must not be told apart. */
describe('no account discovery', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    h.clock.set(Date.now());
  });
  afterEach(() => h.close());

  const answer = async (res: Response) => ({ status: res.status, body: await res.text() });

  it('answers the same for a user of another account and for nobody', async () => {
    const other = await h.newAccount('Other');
    for (const op of ['apikey/list', 'apikey/add', 'apikey/remove', 'enforce_sso', 'enable_sso', 'disable_sso']) {
      const method = op === 'apikey/list' ? 'GET' : 'POST';
      const elsewhere = await answer(await h.call(method, `/v3/user/${op}/${encodeURIComponent(other.email)}`));
      const nobody = await answer(await h.call(method, `/v3/user/${op}/${encodeURIComponent('nobody@nowhere.test')}`));
      expect(elsewhere, op).toEqual({ ...nobody, body: nobody.body.replaceAll('nobody@nowhere.test', other.email) });
    }
  });

  /** An answer with what differs between any two new users (ids, addresses, names, times) blanked. */
  const shapeOf = async (res: Response, email: string, name: string) => ({
    status: res.status,
    body: JSON.parse(
      (await res.text())
        .replaceAll(email, '<email>')
        .replaceAll(name, '<name>')
        .replace(/"id":\d+/g, '"id":0')
        .replace(/"(gravatar_url|created_at|updated_at|createdAt)":"[^"]*"/g, '"$1":""'),
    ),
  });

  it('adds a user whose e-mail is used in another account exactly as one whose e-mail is used nowhere', async () => {
    const other = await h.newAccount('Other');
    const cookie = await signIn(h);
    const byConsole = async (email: string, name: string) =>
      shapeOf(
        await consoleCall(h, 'POST', '/console-api/users', {
          cookie,
          json: { name, email, password: 'a long password 1', administrator: false },
        }),
        email,
        name,
      );
    const elsewhere = await byConsole(other.email, 'elsewhere');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere).toEqual(await byConsole('nobody.console@nowhere.test', 'nobody'));

    const byApi = async (email: string, name: string) =>
      shapeOf(
        await h.call('POST', `/v3/user/add/${name}`, { form: { email, password: 'a long password 1' } }),
        email,
        name,
      );
    const third = await h.newAccount('Third');
    const apiElsewhere = await byApi(third.email, 'api_elsewhere');
    expect(apiElsewhere.status).toBe(200);
    expect(apiElsewhere).toEqual(await byApi('nobody.api@nowhere.test', 'api_nobody'));
    // The address is unique within an account: the second time here it is taken, whichever it was.
    expect(
      (await h.call('POST', '/v3/user/add/again', { form: { email: third.email, password: 'a long password 1' } }))
        .status,
    ).toBe(409);
  });

  it('starts SSO by account, never by e-mail: an account without SSO and no account get the same page', async () => {
    await configureSso(h, await TestIdp.create());
    await createSsoUser(h, 'sso.user@first.test', 'sso-1');
    const start = (query: string) => h.app.request(`/sso/saml/login?${query}`);
    expect((await start(`account=${h.admin.accountId}`)).status).toBe(302);
    const other = await h.newAccount('Other');
    const withoutSso = await answer(await start(`account=${other.accountId}`));
    expect(withoutSso.status).toBe(400);
    expect(withoutSso).toEqual(await answer(await start('account=999999')));
    // An e-mail alone starts nothing, whether it uses SSO or not.
    const bySso = await answer(await start('email=sso.user%40first.test'));
    expect(bySso.status).toBe(400);
    expect(bySso).toEqual(await answer(await start('email=nobody%40first.test')));
  });

  it('answers the same at the password form for SSO and non-SSO users', async () => {
    await configureSso(h, await TestIdp.create());
    await createSsoUser(h, 'sso.user@first.test', 'sso-1');
    await h.call('POST', '/v3/user/add/plain', { json: { email: 'plain@first.test', password: 'a long password 1' } });
    const tryPassword = async (email: string) =>
      answer(await consoleCall(h, 'POST', '/console-api/login', { json: { email, password: 'not the password' } }));
    const sso = await tryPassword('sso.user@first.test');
    expect(sso.status).toBe(401);
    expect(sso).toEqual(await tryPassword('plain@first.test'));
    expect(sso).toEqual(await tryPassword('nobody@first.test'));
  });
});
