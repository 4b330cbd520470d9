import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleCall } from '../testing/consoleClient';
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
