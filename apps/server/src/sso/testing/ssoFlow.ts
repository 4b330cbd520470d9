import { one, sql } from '../../platform/storage';
import type { Harness } from '../../testing/harness';
import { type AuthnRequestInfo, readAuthnRequest, type TestIdp } from './testIdp';

/** Test steps of an SP-initiated sign-in against the real app in-process. */

export async function configureSso(
  h: Harness,
  idp: TestIdp,
  key = h.admin.masterKey,
  extra: Record<string, unknown> = {},
) {
  const res = await h.call('POST', '/v3/account/sso_setting', {
    key,
    json: { sso_setting: { sign_in_endpoint: idp.signInEndpoint, cert: idp.keys.certPem, ...extra } },
  });
  if (res.status !== 200) throw new Error(`configuring SSO failed with ${res.status}: ${await res.text()}`);
  return res.json();
}

export async function createSsoUser(h: Harness, email: string, identifier: string, key = h.admin.masterKey) {
  const firstName = email.split('@')[0] ?? 'x';
  const res = await h.call('POST', `/v3/user/create_with_sso/${encodeURIComponent(firstName)}`, {
    key,
    json: { user_first_name: firstName, email, identifier },
  });
  if (res.status !== 200) throw new Error(`create_with_sso failed with ${res.status}: ${await res.text()}`);
}

/** Starts a sign-in to the account as the browser would and returns what the identity provider receives. */
export async function startLogin(
  h: Harness,
  returnTo?: string,
  accountId = h.admin.accountId,
): Promise<AuthnRequestInfo> {
  const q = new URLSearchParams({ account: String(accountId), ...(returnTo ? { return_to: returnTo } : {}) });
  const res = await h.app.request(`/sso/saml/login?${q}`);
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`login start answered ${res.status}: ${await res.text()}`);
  return readAuthnRequest(location);
}

export function postToAcs(h: Harness, acsUrl: string, samlResponse: string, relayState: string) {
  const url = new URL(acsUrl);
  return h.app.request(`${url.pathname}${url.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
  });
}

export interface AuditRow {
  action: string;
  outcome: string;
  reason: string | null;
  target: string | null;
}

export function lastAudit(h: Harness, accountId = h.admin.accountId): Promise<AuditRow | undefined> {
  return one<AuditRow>(
    h.deps.storage.db,
    sql`SELECT action, outcome, reason, target FROM audit_events WHERE account_id = ${accountId}
         ORDER BY id DESC LIMIT 1`,
  );
}

export const b64 = {
  decode: (s: string) => Buffer.from(s, 'base64').toString('utf8'),
  encode: (s: string) => Buffer.from(s, 'utf8').toString('base64'),
};
