import { SESSION_COOKIE } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleCall, sessionCookieFrom, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { b64, configureSso, createSsoUser, lastAudit, postToAcs, startLogin } from './testing/ssoFlow';
import { TestIdp } from './testing/testIdp';

const ALICE = 'alice@first.test';
const ALICE_ID = 'alice-idp-id';

let h: Harness;
let idp: TestIdp;

beforeEach(async () => {
  h = await createHarness();
  // Assertions carry real timestamps; the server's clock must agree with them.
  h.clock.set(Date.now());
  idp = await TestIdp.create();
  await configureSso(h, idp);
  await createSsoUser(h, ALICE, ALICE_ID);
});
afterEach(() => h.close());

/** A fresh sign-in for Alice and the IdP's signed answer to it. */
async function signedResponse(overrides: Partial<Parameters<TestIdp['respond']>[0]> = {}, signer = idp) {
  const req = await startLogin(h, '/journeys?tab=1');
  const response = await signer.respond({
    nameId: ALICE_ID,
    inResponseTo: req.id,
    acsUrl: req.acsUrl,
    audience: req.issuer,
    ...overrides,
  });
  return { req, response };
}

async function expectRefused(res: Response, reason: string) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.headers.get('set-cookie') ?? '').not.toContain(SESSION_COOKIE);
  expect(await res.text()).toMatch(/<p id="message">[^<]{10,}<\/p>/);
  expect(await lastAudit(h)).toMatchObject({ action: 'sso.sign_in', outcome: 'failure', reason });
}

describe('SAML sign-in', () => {
  it('signs the user in and goes to the requested relative path', async () => {
    const { req, response } = await signedResponse();
    const res = await postToAcs(h, req.acsUrl, response, req.relayState);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/journeys?tab=1');
    const cookie = sessionCookieFrom(res);
    expect(cookie).not.toBeNull();
    const me = await consoleCall(h, 'GET', '/console-api/me', { cookie });
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(ALICE);
    expect(await lastAudit(h)).toMatchObject({ action: 'sso.sign_in', outcome: 'success', target: ALICE });
  });

  it('redirects only to relative paths after sign-in', async () => {
    const req = await startLogin(h, '//evil.example/steal');
    const response = await idp.respond({
      nameId: ALICE_ID,
      inResponseTo: req.id,
      acsUrl: req.acsUrl,
      audience: req.issuer,
    });
    const res = await postToAcs(h, req.acsUrl, response, req.relayState);
    expect(res.headers.get('location')).toBe('/');
  });

  it('sends a Redirect-binding request carrying a RelayState to the identity provider', async () => {
    const res = await h.app.request(`/sso/saml/login?account=${h.admin.accountId}`);
    const location = new URL(res.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(idp.signInEndpoint);
    expect(location.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(location.searchParams.get('RelayState')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('tells a person whose account has no SSO to use their password', async () => {
    const other = await h.newAccount('No SSO');
    const res = await h.app.request(`/sso/saml/login?account=${other.accountId}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('sign in with your password');
  });
});

describe('refused assertions', () => {
  it('refuses a response altered after signing', async () => {
    await createSsoUser(h, 'mallory@first.test', 'mallory-id');
    const { req, response } = await signedResponse();
    const forged = b64.encode(b64.decode(response).replace(`>${ALICE_ID}<`, '>mallory-id<'));
    await expectRefused(await postToAcs(h, req.acsUrl, forged, req.relayState), 'signature_invalid');
  });

  it('refuses a response signed by another key', async () => {
    const stranger = await TestIdp.create({ entityId: idp.entityId });
    const { req, response } = await signedResponse({}, stranger);
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'signature_invalid');
  });

  it('refuses an otherwise valid response signed with RSA-SHA1 and SHA-1 digests', async () => {
    const { req, response } = await signedResponse({
      signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    });
    expect(b64.decode(response)).toContain('xmldsig#rsa-sha1');
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'signature_algorithm_weak');
  });

  it('refuses a SHA-1 digest under an RSA-SHA256 signature', async () => {
    const { req, response } = await signedResponse();
    const xml = b64.decode(response);
    expect(xml).toContain('xmlenc#sha256');
    const weak = b64.encode(
      xml.replaceAll('http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2000/09/xmldsig#sha1'),
    );
    await expectRefused(await postToAcs(h, req.acsUrl, weak, req.relayState), 'digest_algorithm_weak');
  });

  it('refuses an otherwise valid response canonicalized with comments', async () => {
    const { req, response } = await signedResponse({
      transforms: [
        'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
        'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
      ],
    });
    expect(b64.decode(response)).toContain('exc-c14n#WithComments');
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'canonicalization_with_comments');
  });

  it('refuses a response whose signatures were removed', async () => {
    const { req, response } = await signedResponse();
    const stripped = b64.encode(b64.decode(response).replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, ''));
    expect(b64.decode(stripped)).not.toContain('Signature');
    await expectRefused(await postToAcs(h, req.acsUrl, stripped, req.relayState), 'signature_missing');
  });

  it('refuses a response with an extra unsigned assertion', async () => {
    const { req, response } = await signedResponse();
    const xml = b64.decode(response);
    const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)?.[0] ?? '';
    const unsigned = signed
      .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '')
      .replace(/ ID="[^"]+"/, ' ID="_forged"')
      .replace(`>${ALICE_ID}<`, '>someone-else<');
    const doubled = b64.encode(xml.replace(signed, `${unsigned}${signed}`));
    await expectRefused(await postToAcs(h, req.acsUrl, doubled, req.relayState), 'multiple_assertions');
  });

  it('refuses an assertion for another audience', async () => {
    const { req, response } = await signedResponse({ audience: 'https://other-service.example/sp' });
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'audience_mismatch');
  });

  it('refuses a response addressed to another destination', async () => {
    const { req, response } = await signedResponse({ destination: 'https://elsewhere.example/acs' });
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'destination_mismatch');
  });

  it('refuses an expired assertion', async () => {
    const { req, response } = await signedResponse({ issuedAt: new Date(Date.now() - 60 * 60 * 1000) });
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'assertion_expired');
  });

  it('refuses a replayed response', async () => {
    const { req, response } = await signedResponse();
    expect((await postToAcs(h, req.acsUrl, response, req.relayState)).status).toBe(303);
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'replayed');
  });

  it('refuses a response to a request this server did not issue', async () => {
    const { req, response } = await signedResponse({ inResponseTo: '_not-a-request-of-ours' });
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'unknown_in_response_to');
  });

  it('refuses a RelayState this server never issued', async () => {
    const { req, response } = await signedResponse();
    await expectRefused(await postToAcs(h, req.acsUrl, response, 'x'.repeat(43)), 'unknown_request');
  });

  it('refuses a response signed with a certificate past its validity', async () => {
    h.close();
    h = await createHarness();
    const now = Date.now();
    h.clock.set(now);
    idp = await TestIdp.create({
      cert: { notBefore: new Date(now - 86_400_000), notAfter: new Date(now + 60 * 60 * 1000) },
    });
    await configureSso(h, idp);
    await createSsoUser(h, ALICE, ALICE_ID);
    h.clock.advance(2 * 60 * 60 * 1000);
    const { req, response } = await signedResponse();
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'certificate_expired');
  });

  it('refuses a user whose SSO mode is disabled', async () => {
    const { req, response } = await signedResponse();
    const off = await h.call('POST', `/v3/user/disable_sso/${ALICE}`, { json: { sso_setting: { user_email: ALICE } } });
    expect(off.status).toBe(200);
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'user_sso_disabled');
  });

  it('refuses a user of another account', async () => {
    const other = await h.newAccount('Second');
    await configureSso(h, idp, other.masterKey);
    await createSsoUser(h, 'bob@second.test', 'bob-id', other.masterKey);
    const { req, response } = await signedResponse({ nameId: 'bob-id' });
    await expectRefused(await postToAcs(h, req.acsUrl, response, req.relayState), 'unknown_user');
  });

  it('refuses a SAMLResponse of 1 MB', async () => {
    const { req } = await signedResponse();
    const huge = b64.encode(`<samlp:Response>${'A'.repeat(1024 * 1024)}</samlp:Response>`);
    const res = await postToAcs(h, req.acsUrl, huge, req.relayState);
    expect(res.status).toBe(413);
    await expectRefused(res, 'response_too_large');
  });

  it('refuses XML with a DOCTYPE', async () => {
    const { req, response } = await signedResponse();
    const withDoctype = b64.encode(`<!DOCTYPE r [<!ENTITY e "x">]>${b64.decode(response)}`);
    await expectRefused(await postToAcs(h, req.acsUrl, withDoctype, req.relayState), 'doctype_forbidden');
  });
});

describe('Test SSO', () => {
  it('runs the round trip for an administrator without creating a session', async () => {
    const cookie = await signIn(h);
    const start = await h.app.request('/sso/saml/test', { headers: { cookie } });
    expect(start.status).toBe(302);
    const { readAuthnRequest } = await import('./testing/testIdp');
    const req = readAuthnRequest(start.headers.get('location') ?? '');
    await h.call('POST', `/v3/user/enable_sso/${h.admin.email}`, {
      json: { sso_setting: { user_email: h.admin.email, identifier: 'admin-id' } },
    });
    const response = await idp.respond({
      nameId: 'admin-id',
      inResponseTo: req.id,
      acsUrl: req.acsUrl,
      audience: req.issuer,
    });
    const res = await postToAcs(h, req.acsUrl, response, req.relayState);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/settings/sso?test=passed');
    expect(sessionCookieFrom(res)).toBeNull();
    expect(await lastAudit(h)).toMatchObject({ action: 'sso.test', outcome: 'success' });
    const setting = (await (await h.call('GET', '/v3/account/sso_setting')).json()) as {
      sso_setting: { tested_at: string | null };
    };
    expect(setting.sso_setting.tested_at).not.toBeNull();
  });

  interface LastTest {
    outcome: string;
    reason: string | null;
    name_id: string | null;
    attributes: Record<string, string[]>;
    user: { email: string; name: string | null; sso_mode: string } | null;
  }
  const testRoundTrip = async (nameId: string, attributes?: Record<string, string | string[]>) => {
    const cookie = await signIn(h);
    const start = await h.app.request('/sso/saml/test', { headers: { cookie } });
    const { readAuthnRequest } = await import('./testing/testIdp');
    const req = readAuthnRequest(start.headers.get('location') ?? '');
    const response = await idp.respond({
      nameId,
      inResponseTo: req.id,
      acsUrl: req.acsUrl,
      audience: req.issuer,
      ...(attributes ? { attributes } : {}),
    });
    const res = await postToAcs(h, req.acsUrl, response, req.relayState);
    const setting = (await (await h.call('GET', '/v3/account/sso_setting')).json()) as {
      sso_setting: { last_test: LastTest | null };
    };
    return { location: res.headers.get('location'), last: setting.sso_setting.last_test };
  };

  it('shows the asserted NameID, the attributes and the user they map to', async () => {
    await h.call('POST', `/v3/user/enable_sso/${h.admin.email}`, {
      json: { sso_setting: { user_email: h.admin.email, identifier: 'admin-id' } },
    });
    const { location, last } = await testRoundTrip('admin-id', {
      email: h.admin.email,
      groups: ['analysts', 'admins'],
      displayName: 'Ada <Admin>',
    });
    expect(location).toBe('/settings/sso?test=passed');
    expect(last).toMatchObject({
      outcome: 'passed',
      reason: null,
      name_id: 'admin-id',
      attributes: { email: [h.admin.email], groups: ['analysts', 'admins'], displayName: ['Ada <Admin>'] },
      user: { email: h.admin.email, sso_mode: 'enabled' },
    });
  });

  it('shows what was asserted when no user has the NameID', async () => {
    const { location, last } = await testRoundTrip('nobody-here', { department: 'sales' });
    expect(location).toBe('/settings/sso?test=failed&reason=unknown_user');
    expect(last).toMatchObject({
      outcome: 'failed',
      reason: 'unknown_user',
      name_id: 'nobody-here',
      attributes: { department: ['sales'] },
      user: null,
    });
  });
});
