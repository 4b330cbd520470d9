import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run, sql } from '../platform/storage';
import { consoleCall, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { configureSso, lastAudit } from './testing/ssoFlow';
import { TestIdp } from './testing/testIdp';

/** SSO found by e-mail domain (decision 0037): claims, and the sign-in page's question "where do I go?". */
interface Answer {
  message?: string;
  sso_domain?: Record<string, string>;
  sso_domains?: { domain: string }[];
}

describe('SSO domains', () => {
  let h: Harness;
  const body = async (res: Response) => (await res.json()) as Answer;
  const own = () => h.admin.email.split('@')[1] as string;
  const claim = (domain: unknown, key = h.admin.masterKey) =>
    h.call('POST', '/v3/account/sso_domains', { key, json: { domain } });
  const discover = async (email: string, returnTo?: string) => {
    const res = await consoleCall(h, 'POST', '/console-api/sso/discover', { json: { email, returnTo } });
    return { status: res.status, body: await res.text() };
  };

  // The test identity provider's certificate is valid from now on the real clock.
  beforeEach(async () => {
    h = await createHarness();
    h.clock.set(Date.now());
  });
  afterEach(() => h.close());

  it('claims the domain of the administrator’s own address, lists, audits and releases it', async () => {
    const res = await claim(` @${own().toUpperCase()} `);
    expect(res.status).toBe(200);
    expect((await body(res)).sso_domain).toMatchObject({ domain: own(), claimed_by: h.admin.email });
    expect(await lastAudit(h)).toMatchObject({ action: 'sso_domain.claim', outcome: 'success', target: own() });
    // Claiming again is not an error: the account has it.
    expect((await claim(own())).status).toBe(200);
    const list = await body(await h.call('GET', '/v3/account/sso_domains'));
    expect(list.sso_domains?.map((d) => d.domain)).toEqual([own()]);

    expect((await h.call('DELETE', `/v3/account/sso_domains/${own()}`)).status).toBe(200);
    expect(await lastAudit(h)).toMatchObject({ action: 'sso_domain.release', target: own() });
    expect((await h.call('DELETE', `/v3/account/sso_domains/${own()}`)).status).toBe(404);
    expect((await body(await h.call('GET', '/v3/account/sso_domains'))).sso_domains).toEqual([]);
  });

  it('refuses a domain that is not the caller’s own, a public mail service and what is not a domain', async () => {
    const other = await claim('elsewhere.org');
    expect(other.status).toBe(403);
    expect((await body(other)).message).toContain(`own e-mail address (${own()})`);
    const gmail = await claim('gmail.com');
    expect(gmail.status).toBe(400);
    expect((await body(gmail)).message).toContain('public mail service');
    for (const bad of ['nodot', 'a..b.org', 'x'.repeat(300), 'exa mple.org', 'üñí.org']) {
      const res = await claim(bad);
      expect(res.status, bad).toBe(400);
      expect((await body(res)).message).toContain('"domain" must be an e-mail domain');
    }
    expect((await claim(42)).status).toBe(400);
    expect((await h.call('POST', '/v3/account/sso_domains', { json: {} })).status).toBe(400);
  });

  it('lets only administrators claim, list and release', async () => {
    const add = await h.call('POST', '/v3/user/add/member', {
      form: { email: `member@${own()}`, password: 'a long password 1' },
    });
    expect(add.status).toBe(200);
    const cookie = await signIn(h, `member@${own()}`, 'a long password 1');
    for (const [method, path, json] of [
      ['POST', '/v3/account/sso_domains', { domain: own() }],
      ['GET', '/v3/account/sso_domains', undefined],
      ['DELETE', `/v3/account/sso_domains/${own()}`, undefined],
    ] as const) {
      expect((await consoleCall(h, method, path, { cookie, json })).status, `${method} ${path}`).toBe(403);
    }
  });

  it('gives a domain to one account only', async () => {
    expect((await claim(own())).status).toBe(200);
    const other = await h.newAccount('Other');
    await run(h.deps.storage.db, sql`UPDATE users SET email = ${`boss@${own()}`} WHERE id = ${other.userId}`);
    const res = await claim(own(), other.masterKey);
    expect(res.status).toBe(409);
    expect((await body(res)).message).toContain('claimed by another account');
  });

  it('answers an unclaimed domain exactly as a domain claimed without SSO, and starts SSO for a claimed one', async () => {
    const unclaimed = await discover('someone@nobody-claimed.org');
    expect(unclaimed).toEqual({ status: 200, body: '{"url":null}' });
    expect((await claim(own())).status).toBe(200);
    expect(await discover(`someone@${own()}`)).toEqual(unclaimed);
    expect(await discover('not an address')).toEqual(unclaimed);

    const idp = await TestIdp.create();
    await configureSso(h, idp);
    const found = await discover(`Someone@${own().toUpperCase()}`, '/data/databases');
    expect(found.status).toBe(200);
    const url = JSON.parse(found.body).url as string;
    expect(url).toBe(`/sso/saml/login?account=${h.admin.accountId}&return_to=%2Fdata%2Fdatabases`);
    const start = await h.app.request(url);
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toContain(idp.signInEndpoint);
    // Another site's address is never a place to return to.
    expect(JSON.parse((await discover(`a@${own()}`, 'https://evil.test/')).body).url).toContain('return_to=%2F');
  });

  it('refuses a discovery body that is not an address in text', async () => {
    const res = await consoleCall(h, 'POST', '/console-api/sso/discover', { json: { email: 42 } });
    expect(res.status).toBe(400);
    const long = await consoleCall(h, 'POST', '/console-api/sso/discover', { json: { email: 'a'.repeat(300) } });
    expect(long.status).toBe(400);
  });
});
