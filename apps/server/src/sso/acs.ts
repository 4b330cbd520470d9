import type { Profile } from '@node-saml/node-saml';
import type { UserRow } from '../accounts';
import type { AppDeps } from '../platform/context';
import { sql } from '../platform/storage';
import { readCertificates, validNow } from './certificates';
import {
  type ClaimedRequest,
  claimedRequestCache,
  claimRequest,
  REQUEST_TTL_MS,
  samlFor,
  serviceProvider,
} from './serviceProvider';
import { findSetting } from './settings';
import { findUserByIdentifier } from './userSso';
import { elements, hasDoctype, parseXml, type XmlDocument } from './xml';

/**
 * The assertion consumer's checks, in order. node-saml verifies signatures, time window, audience and
 * InResponseTo; around it we refuse what it lets through or cannot know: size, DOCTYPE, stray assertions,
 * requests we never issued, certificates past their validity, destination, issuer, replay, and the user.
 */

export const MAX_SAML_RESPONSE_BYTES = 256 * 1024;

export type RefusalReason =
  | 'response_too_large'
  | 'malformed_response'
  | 'doctype_forbidden'
  | 'signature_missing'
  | 'signature_algorithm_weak'
  | 'digest_algorithm_weak'
  | 'canonicalization_with_comments'
  | 'multiple_assertions'
  | 'replayed'
  | 'unknown_request'
  | 'request_expired'
  | 'no_sso_setting'
  | 'certificate_expired'
  | 'signature_invalid'
  | 'assertion_expired'
  | 'assertion_not_yet_valid'
  | 'audience_mismatch'
  | 'unknown_in_response_to'
  | 'destination_mismatch'
  | 'issuer_mismatch'
  | 'idp_refused'
  | 'unknown_user'
  | 'user_sso_disabled';

/** What the person is told; the code goes to the audit log. */
const REFUSAL_MESSAGES: Record<RefusalReason, string> = {
  response_too_large: 'The sign-in response from your identity provider is too large to accept.',
  malformed_response: 'The sign-in response from your identity provider could not be read.',
  doctype_forbidden:
    'The sign-in response from your identity provider contains a document type declaration, which is not accepted.',
  signature_missing: 'The sign-in response is not signed by your identity provider.',
  signature_algorithm_weak:
    'The sign-in response is signed with a weak algorithm (such as RSA-SHA1). Ask an administrator to set your identity provider to sign with RSA-SHA256 or stronger.',
  digest_algorithm_weak:
    'The sign-in response uses a weak digest (such as SHA-1). Ask an administrator to set your identity provider to SHA-256 or stronger.',
  canonicalization_with_comments:
    'The sign-in response is canonicalized with comments, which is not accepted. Ask an administrator to set your identity provider to exclusive canonicalization without comments.',
  multiple_assertions: 'The sign-in response holds more than one assertion, which is not accepted.',
  replayed: 'This sign-in response was already used. Start the sign-in again.',
  unknown_request: 'This sign-in was not started here, or was already completed. Start the sign-in again.',
  request_expired: 'The sign-in took too long. Start it again.',
  no_sso_setting: 'Single sign-on is not configured for this account.',
  certificate_expired:
    "Your identity provider's certificate configured here has expired. Ask an administrator to update it.",
  signature_invalid:
    'The signature of the sign-in response does not match the certificate configured for your identity provider.',
  assertion_expired: 'The sign-in response has expired. Start the sign-in again.',
  assertion_not_yet_valid:
    'The sign-in response is not valid yet. Check the clocks of the identity provider and this server.',
  audience_mismatch: 'The sign-in response was issued for another service.',
  unknown_in_response_to: 'The sign-in response does not answer the request this server sent. Start the sign-in again.',
  destination_mismatch: 'The sign-in response was addressed to another location.',
  issuer_mismatch: 'The sign-in response comes from an identity provider other than the configured one.',
  idp_refused: 'Your identity provider did not sign you in.',
  unknown_user: 'No user of this account has the identity your provider sent. Ask an administrator to add you.',
  user_sso_disabled: 'Single sign-on is turned off for your user. Sign in with your password, or ask an administrator.',
};

export class Refusal extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly details: Record<string, unknown> = {},
    /** The request the response answered, once it is known (tells a sign-in from a test). */
    readonly request: ClaimedRequest | null = null,
  ) {
    super(REFUSAL_MESSAGES[reason]);
  }
}

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

interface Outline {
  destination: string | null;
  assertionId: string;
}

/** Signature algorithms of SHA-256 or stronger (XML Signature and RFC 6931 identifiers). */
const STRONG_SIGNATURES = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512',
  'http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1',
  'http://www.w3.org/2007/05/xmldsig-more#sha384-rsa-MGF1',
  'http://www.w3.org/2007/05/xmldsig-more#sha512-rsa-MGF1',
]);
const STRONG_DIGESTS = new Set([
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);
/** Canonicalizations and transforms without comments; anything else (…#WithComments, XSLT, XPath) is refused. */
const PLAIN_TRANSFORMS = new Set([
  'http://www.w3.org/2001/10/xml-exc-c14n#',
  'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  'http://www.w3.org/2006/12/xml-c14n11',
  'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
]);

function algorithmsOf(doc: XmlDocument, name: string): string[] {
  return elements(doc.getElementsByTagNameNS(DSIG_NS, name)).map((el) => el.getAttribute('Algorithm') ?? '');
}

/** Every signature in the response uses SHA-256 or stronger and canonicalizes without comments. */
function checkAlgorithms(doc: XmlDocument): void {
  const weak = (values: string[], allowed: Set<string>) => values.find((v) => !allowed.has(v));
  const signature = weak(algorithmsOf(doc, 'SignatureMethod'), STRONG_SIGNATURES);
  if (signature !== undefined) throw new Refusal('signature_algorithm_weak', { algorithm: signature });
  const digest = weak(algorithmsOf(doc, 'DigestMethod'), STRONG_DIGESTS);
  if (digest !== undefined) throw new Refusal('digest_algorithm_weak', { algorithm: digest });
  const transform = weak(
    [...algorithmsOf(doc, 'CanonicalizationMethod'), ...algorithmsOf(doc, 'Transform')],
    PLAIN_TRANSFORMS,
  );
  if (transform !== undefined) throw new Refusal('canonicalization_with_comments', { algorithm: transform });
}

/** Reads the response's shape before any signature work, refusing what no valid response looks like. */
function outline(xml: string): Outline {
  if (hasDoctype(xml)) throw new Refusal('doctype_forbidden');
  const doc = parseXml(xml);
  const root = doc?.documentElement;
  if (!doc || !root || root.localName !== 'Response' || root.namespaceURI !== PROTOCOL_NS) {
    throw new Refusal('malformed_response');
  }
  if (doc.getElementsByTagNameNS(DSIG_NS, 'Signature').length === 0) throw new Refusal('signature_missing');
  checkAlgorithms(doc);
  const assertions = doc.getElementsByTagNameNS(ASSERTION_NS, 'Assertion');
  const encrypted = doc.getElementsByTagNameNS(ASSERTION_NS, 'EncryptedAssertion');
  if (assertions.length + encrypted.length > 1) throw new Refusal('multiple_assertions');
  const assertion = assertions.item(0);
  const assertionId = assertion?.getAttribute('ID');
  if (!assertion || !assertionId) throw new Refusal('malformed_response', { problem: 'no assertion' });
  return { destination: root.getAttribute('Destination') || null, assertionId };
}

function reasonOf(err: unknown): RefusalReason {
  const message = err instanceof Error ? err.message : String(err);
  if (/multiple assertions/i.test(message)) return 'multiple_assertions';
  if (/signature/i.test(message)) return 'signature_invalid';
  if (/not yet valid/i.test(message)) return 'assertion_not_yet_valid';
  // node-saml drops subject confirmations outside their time window, then finds none left.
  if (/expired|no valid subject confirmation/i.test(message)) return 'assertion_expired';
  if (/audience/i.test(message)) return 'audience_mismatch';
  if (/InResponseTo/i.test(message)) return 'unknown_in_response_to';
  if (/status|Responder|Requester/i.test(message)) return 'idp_refused';
  return 'malformed_response';
}

type XmlNode = { $?: Record<string, string>; _?: string } & Record<string, unknown>;

/** The Recipient of the bearer confirmation inside the signed assertion. */
function recipientsOf(profile: Profile): string[] {
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  const subject = (assertion?.Subject as XmlNode[] | undefined)?.[0];
  const confirmations = (subject?.SubjectConfirmation as XmlNode[] | undefined) ?? [];
  return confirmations.flatMap((c) =>
    ((c.SubjectConfirmationData as XmlNode[] | undefined) ?? []).map((d) => d.$?.Recipient ?? ''),
  );
}

export interface AcsSuccess {
  request: ClaimedRequest;
  user: UserRow;
  nameId: string;
  nameIdFormat: string | null;
  attributes: Record<string, string[]>;
}

const MAX_ATTRIBUTES = 50;
const MAX_VALUES = 20;
const MAX_VALUE_LENGTH = 500;

/** The assertion's attributes as text lists, cut to what a person reads in Test SSO's details. */
function attributesOf(profile: Profile): Record<string, string[]> {
  const raw = profile.attributes;
  const out: Record<string, string[]> = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>).slice(0, MAX_ATTRIBUTES)) {
    const list = Array.isArray(value) ? value : [value];
    out[name.slice(0, 200)] = list
      .slice(0, MAX_VALUES)
      .map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).slice(0, MAX_VALUE_LENGTH));
  }
  return out;
}

/**
 * Validates a posted SAMLResponse for the account the consumer URL names. Throws a Refusal with the
 * reason; on success the request is used up and the assertion id remembered, so neither works twice.
 */
export async function consumeResponse(
  deps: AppDeps,
  origin: string,
  accountId: number,
  samlResponse: string,
  relayState: string,
): Promise<AcsSuccess> {
  const now = deps.clock.now();
  if (samlResponse.length > MAX_SAML_RESPONSE_BYTES) throw new Refusal('response_too_large');
  if (!/^[A-Za-z0-9+/=\s]+$/.test(samlResponse)) throw new Refusal('malformed_response');
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const shape = outline(xml);
  const db = deps.storage.db;
  const seen = await db
    .selectFrom('saml_seen_assertions')
    .select(sql<number>`1`.as('seen'))
    .where('account_id', '=', accountId)
    .where('assertion_id', '=', shape.assertionId)
    .executeTakeFirst();
  if (seen) throw new Refusal('replayed', { assertion_id: shape.assertionId });

  const request = await claimRequest(deps, accountId, relayState);
  if (!request || request.accountId !== accountId) throw new Refusal('unknown_request');
  if (now.getTime() - request.createdAt > REQUEST_TTL_MS) throw new Refusal('request_expired');
  const fail = (reason: RefusalReason, details: Record<string, unknown> = {}) => new Refusal(reason, details, request);

  const setting = await findSetting(db, accountId);
  if (!setting) throw fail('no_sso_setting');
  const trusted = validNow(readCertificates(setting.cert, now), now);
  if (trusted.length === 0) throw fail('certificate_expired');

  const sp = serviceProvider(origin, accountId);
  const saml = samlFor(
    sp,
    setting,
    trusted.map((c) => c.pem),
    claimedRequestCache(request.requestId, request.createdAt),
  );
  let profile: Profile | null;
  try {
    profile = (await saml.validatePostResponseAsync({ SAMLResponse: samlResponse })).profile;
  } catch (err) {
    throw fail(reasonOf(err), { error: err instanceof Error ? err.message : String(err) });
  }
  if (!profile?.nameID) throw fail('malformed_response', { problem: 'no NameID' });
  if (shape.destination !== sp.acs_url) throw fail('destination_mismatch', { destination: shape.destination });
  const recipients = recipientsOf(profile);
  if (recipients.length === 0 || recipients.some((r) => r !== sp.acs_url)) {
    throw fail('destination_mismatch', { recipients });
  }
  if (setting.idp_entity_id !== null && profile.issuer !== setting.idp_entity_id) {
    throw fail('issuer_mismatch', { issuer: profile.issuer });
  }
  // Recorded once: when another node consumed the same assertion meanwhile, this one is the replay.
  const recorded = await db
    .insertInto('saml_seen_assertions')
    .values({ account_id: accountId, assertion_id: shape.assertionId, seen_at: now.getTime() })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0) throw fail('replayed', { assertion_id: shape.assertionId });

  const asserted = {
    name_id: profile.nameID,
    name_id_format: profile.nameIDFormat || null,
    attributes: attributesOf(profile),
  };
  const user = await findUserByIdentifier(db, accountId, profile.nameID);
  if (!user) throw fail('unknown_user', asserted);
  if (user.sso_mode === 'disabled') throw fail('user_sso_disabled', { ...asserted, user: user.email });
  return {
    request,
    user,
    nameId: profile.nameID,
    nameIdFormat: asserted.name_id_format,
    attributes: asserted.attributes,
  };
}
