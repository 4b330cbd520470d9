import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { limits } from '../platform/limits';
import { configureSso, createSsoUser, postToAcs, startLogin } from '../sso/testing/ssoFlow';
import { TestIdp } from '../sso/testing/testIdp';
import { consoleCall, PASSWORD, sessionCookieFrom, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';

/**
 * Two nodes on one database (issue 16): what a person does on one node holds on the other, because sessions,
 * sign-in failures, notices and SAML requests live in the database, not in a node's memory.
 */
describe('sign-in across two nodes', () => {
  let a: Harness;
  let b: Harness;
  beforeEach(async () => {
    a = await createHarness();
    b = await a.secondNode();
  });
  afterEach(async () => {
    await b.close();
    await a.close();
  });

  const me = (node: Harness, cookie: string) => consoleCall(node, 'GET', '/console-api/me', { cookie });
  const login = (node: Harness, password: string, address: string) =>
    consoleCall(node, 'POST', '/console-api/login', { json: { email: a.admin.email, password }, address });

  it('takes a session started on one node on the other, and ends it there for both', async () => {
    const cookie = await signIn(a);
    expect((await me(b, cookie)).status).toBe(200);
    expect((await consoleCall(b, 'POST', '/console-api/logout', { cookie })).status).toBe(200);
    expect((await me(a, cookie)).status).toBe(401);
  });

  it('ends the other sessions on every node after a password change on one', async () => {
    const other = await signIn(a);
    const mine = await signIn(b);
    const changed = await consoleCall(b, 'POST', '/console-api/me/password', {
      cookie: mine,
      json: { currentPassword: PASSWORD, newPassword: 'another long password' },
    });
    expect(changed.status).toBe(200);
    expect((await me(a, other)).status).toBe(401);
    const fresh = sessionCookieFrom(changed) as string;
    expect((await me(a, fresh)).status).toBe(200);
  });

  it('counts failed sign-ins on both nodes together, and shows the notice once', async () => {
    const ADDRESS = '192.0.2.60';
    for (let i = 0; i < limits.loginAttempts; i++) {
      const node = i % 2 === 0 ? a : b;
      expect((await login(node, 'wrong password', ADDRESS)).status).toBe(401);
    }
    expect((await login(a, PASSWORD, ADDRESS)).status).toBe(429);
    expect((await login(b, PASSWORD, ADDRESS)).status).toBe(429);
    const first = (await (await login(b, PASSWORD, '198.51.100.30')).json()) as object;
    expect(first).toHaveProperty('loginNotices');
    const second = (await (await login(a, PASSWORD, '198.51.100.30')).json()) as object;
    expect(second).not.toHaveProperty('loginNotices');
  });

  it('finishes on one node an SSO sign-in started on the other, once', async () => {
    a.clock.set(Date.now());
    const idp = await TestIdp.create();
    await configureSso(a, idp);
    await createSsoUser(a, 'alice@first.test', 'alice-id');
    const req = await startLogin(a);
    const response = await idp.respond({
      nameId: 'alice-id',
      inResponseTo: req.id,
      acsUrl: req.acsUrl,
      audience: req.issuer,
    });
    const done = await postToAcs(b, req.acsUrl, response, req.relayState);
    expect(done.status).toBe(303);
    const cookie = sessionCookieFrom(done) as string;
    expect((await me(a, cookie)).status).toBe(200);
    // The same response again, on the node that started it: used up.
    expect((await postToAcs(a, req.acsUrl, response, req.relayState)).status).toBe(403);
  });
});
