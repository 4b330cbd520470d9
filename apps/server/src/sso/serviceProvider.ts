import { randomBytes } from 'node:crypto';
import { type CacheProvider, SAML, type SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';
import type { SsoServiceProvider } from '@svc/contracts';
import type { AppDeps } from '../platform/context';
import { hmac } from '../platform/secrets';
import type { SettingRow } from './settings';

/**
 * Our side of SAML: per-account entity ID and consumer URL, the node-saml service provider built with
 * strict options, and the requests this server issued, kept in the database (not a cookie) and usable once.
 */

export const REQUEST_TTL_MS = 10 * 60 * 1000;
const CLOCK_SKEW_MS = 2 * 60 * 1000;
const NAMEID_UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

/** The addresses of the account's service provider, on the origin the request came to. */
export function serviceProvider(origin: string, accountId: number): SsoServiceProvider {
  const metadata = `${origin}/sso/saml/metadata?account=${accountId}`;
  return { entity_id: metadata, metadata_url: metadata, acs_url: `${origin}/sso/saml/acs?account=${accountId}` };
}

/** node-saml's check of InResponseTo asks this; it knows only the one request the RelayState claimed. */
function claimedRequestCache(requestId: string | null, createdAt: number): CacheProvider {
  return {
    saveAsync: async () => null,
    getAsync: async (key) => (requestId !== null && key === requestId ? new Date(createdAt).toISOString() : null),
    removeAsync: async () => null,
  };
}

export function samlFor(sp: SsoServiceProvider, setting: SettingRow, idpCerts: string[], cache: CacheProvider): SAML {
  const config: SamlConfig = {
    issuer: sp.entity_id,
    callbackUrl: sp.acs_url,
    audience: sp.entity_id,
    entryPoint: setting.sign_in_endpoint,
    idpCert: idpCerts,
    identifierFormat: NAMEID_UNSPECIFIED,
    // The assertion must carry its own valid signature; a signed response around it is welcome but not enough.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: cache,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => `_${randomBytes(20).toString('hex')}`,
  };
  return new SAML(config);
}

export function metadataXml(sp: SsoServiceProvider): string {
  // The certificate is not needed for metadata; node-saml asks for one, so a stand-in value is passed that metadata never reads.
  const saml = new SAML({
    issuer: sp.entity_id,
    callbackUrl: sp.acs_url,
    idpCert: 'unused',
    identifierFormat: NAMEID_UNSPECIFIED,
    wantAssertionsSigned: true,
  });
  return saml.generateServiceProviderMetadata(null);
}

export type RequestPurpose = 'login' | 'test';

const relayHash = (deps: AppDeps, token: string) => hmac(deps.config.secret, `saml-relay:${token}`);

/**
 * Builds a signed-in-nowhere AuthnRequest for the Redirect binding and stores it under a random RelayState.
 * Returns the identity provider URL to send the browser to.
 */
export async function startRequest(
  deps: AppDeps,
  opts: {
    sp: SsoServiceProvider;
    setting: SettingRow;
    purpose: RequestPurpose;
    returnTo: string;
    actorUserId: number | null;
  },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now().getTime();
  const store: CacheProvider = {
    saveAsync: async (requestId, value) => {
      const db = deps.storage.db;
      await db
        .deleteFrom('saml_requests')
        .where('created_at', '<=', now - REQUEST_TTL_MS)
        .execute();
      await db
        .insertInto('saml_requests')
        .values({
          relay_hash: relayHash(deps, token),
          account_id: opts.setting.account_id,
          request_id: requestId,
          purpose: opts.purpose,
          return_to: opts.returnTo,
          actor_user_id: opts.actorUserId,
          created_at: now,
        })
        .execute();
      return { value, createdAt: now };
    },
    getAsync: async () => null,
    removeAsync: async () => null,
  };
  const saml = samlFor(opts.sp, opts.setting, ['unused'], store);
  return saml.getAuthorizeUrlAsync(token, undefined, {});
}

export interface ClaimedRequest {
  accountId: number;
  requestId: string;
  purpose: RequestPurpose;
  returnTo: string;
  actorUserId: number | null;
  createdAt: number;
}

/**
 * Takes the request a RelayState names for the account out of the store: a second use finds nothing, on any
 * node (the DELETE … RETURNING gives the row to one statement only).
 */
export async function claimRequest(deps: AppDeps, accountId: number, token: string): Promise<ClaimedRequest | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const row = await deps.storage.db
    .deleteFrom('saml_requests')
    .where('account_id', '=', accountId)
    .where('relay_hash', '=', relayHash(deps, token))
    .returning(['account_id', 'request_id', 'purpose', 'return_to', 'actor_user_id', 'created_at'])
    .$narrowType<{ purpose: RequestPurpose }>()
    .executeTakeFirst();
  if (!row) return null;
  return {
    accountId: row.account_id,
    requestId: row.request_id,
    purpose: row.purpose,
    returnTo: row.return_to,
    actorUserId: row.actor_user_id,
    createdAt: row.created_at,
  };
}

export { claimedRequestCache };

/** Only a relative path of this site may follow a sign-in: never another origin, never `//host`. */
export function safeReturnTo(value: string | undefined | null): string {
  if (!value || value.length > 512) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  if (hasControlCharacter(value)) return '/';
  try {
    const url = new URL(value, 'http://relative.invalid');
    if (url.origin !== 'http://relative.invalid') return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

export function hasControlCharacter(value: string): boolean {
  for (const ch of value) if (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) return true;
  return false;
}
