import type { Response } from 'undici';
import { type OutboundSwitches, urlProblem } from '../platform/addressPolicy';
import { ApiError, badRequest, unprocessable } from '../platform/errors';
import { type PinnedFetch, refusalOf, withPinnedFetch } from '../platform/pinnedFetch';
import { type ParsedCertificate, parseCertificates } from './certificates';
import { elements, hasDoctype, parseXml, type XmlElement } from './xml';

/**
 * Identity provider metadata fetched from its URL (decision 0049): the one address policy is asked before
 * the first request and before each redirect, and each connection reaches only an address it approves then
 * (`platform/pinnedFetch.ts`); the whole fetch has a time limit and the answer a size limit.
 * The XML is read with the SAML code's parser. Every failure is an ApiError whose sentence names the URL's
 * origin only and says what to check; nothing of the remote answer is quoted.
 */

const METADATA_MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;
const MAX_URL = 2048;
const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export interface IdpMetadata {
  entityId: string | null;
  signIn: string;
  signOut: string | null;
  /** The signing certificates that are valid now, in the metadata's order. */
  certs: ParsedCertificate[];
}

export interface FetchOptions {
  switches: OutboundSwitches | undefined;
  timeoutMs?: number;
}

/** The URL as typed, checked for shape (not yet for its address): trimmed, at most 2048 characters, no credentials. */
export function metadataUrlInput(value: unknown): string {
  const hint = '"metadata_url" must be the https address of the identity provider\'s SAML metadata';
  if (typeof value !== 'string' || value.trim() === '') throw badRequest(`${hint}.`);
  const text = value.trim();
  if (text.length > MAX_URL) throw badRequest(`${hint}, at most ${MAX_URL} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(`${hint}; "${text.slice(0, 100)}" is not a URL.`);
  }
  if (url.username || url.password) throw badRequest('"metadata_url" must not contain a user name or password.');
  return url.toString();
}

const originOf = (url: string) => new URL(url).origin;

async function readLimited(res: Response, origin: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  const tooLarge = () =>
    unprocessable(
      `The metadata at ${origin} is larger than ${METADATA_MAX_BYTES / 1024 / 1024} MiB; is the URL the identity provider's SAML metadata?`,
    );
  if (declared > METADATA_MAX_BYTES) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > METADATA_MAX_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** GETs the metadata, following at most three redirects, each checked by the address policy. */
function fetchMetadataText(url: string, options: FetchOptions): Promise<string> {
  return withPinnedFetch('idpMetadata', options.switches, (send) => fetchWith(send, url, options));
}

async function fetchWith(send: PinnedFetch, url: string, options: FetchOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  for (let hop = 0; ; hop++) {
    const origin = originOf(current);
    const problem = await urlProblem(current, 'idpMetadata', options.switches);
    if (problem) throw badRequest(hop === 0 ? problem : `The metadata URL redirected to ${origin}: ${problem}`);
    try {
      const res = await send(current, {
        redirect: 'manual',
        signal,
        headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      });
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel();
        const location = res.headers.get('location');
        if (!location || hop >= MAX_REDIRECTS) {
          throw unprocessable(
            `The metadata URL at ${origin} ${location ? `redirected more than ${MAX_REDIRECTS} times` : 'redirected nowhere'}; give the final address of the metadata.`,
          );
        }
        current = new URL(location, current).toString();
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw unprocessable(
          `The metadata URL at ${origin} answered HTTP ${res.status}; check the address in the identity provider's settings.`,
        );
      }
      return await readLimited(res, origin);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const refused = refusalOf(err);
      if (refused) throw badRequest(hop === 0 ? refused : `The metadata URL redirected to ${origin}: ${refused}`);
      throw unprocessable(
        signal.aborted
          ? `The metadata URL at ${origin} did not answer within ${timeoutMs / 1000} seconds.`
          : `The metadata URL at ${origin} could not be reached; check the address and that this server can reach it.`,
      );
    }
  }
}

function pem(base64: string): string {
  const body = base64.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').trim()}\n-----END CERTIFICATE-----`;
}

/** The service's Location, preferring the Redirect binding, which is the one sign-in requests use. */
function location(descriptor: XmlElement, tag: string): string | null {
  const services = elements(descriptor.getElementsByTagNameNS(MD, tag));
  const chosen = services.find((s) => s.getAttribute('Binding') === REDIRECT) ?? services[0];
  return chosen?.getAttribute('Location')?.trim() || null;
}

/** The signing certificates listed, valid now; those expired or unreadable are left out while one remains. */
function signingCertificates(descriptor: XmlElement, now: Date): ParsedCertificate[] {
  const listed = elements(descriptor.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    .filter((k) => (k.getAttribute('use') ?? 'signing') === 'signing')
    .flatMap((k) => elements(k.getElementsByTagNameNS(DS, 'X509Certificate')).map((c) => pem(c.textContent ?? '')));
  const unique = [...new Set(listed)];
  if (unique.length === 0) {
    throw unprocessable(
      'The metadata lists no signing certificate (KeyDescriptor use="signing") for the identity provider.',
    );
  }
  const usable: ParsedCertificate[] = [];
  let firstProblem = '';
  for (const text of unique) {
    try {
      usable.push(...parseCertificates(text, now).certs);
    } catch (err) {
      firstProblem ||= err instanceof Error ? err.message : String(err);
    }
  }
  if (usable.length === 0) throw unprocessable(`No signing certificate of the metadata can be used: ${firstProblem}`);
  // The same limits as a typed setting (at most five certificates).
  return parseCertificates(usable.map((c) => c.pem).join('\n'), now).certs;
}

/** Reads SAML IdP metadata (an EntityDescriptor, or the first identity provider of an EntitiesDescriptor). */
function parseMetadata(xml: string, now: Date): IdpMetadata {
  if (hasDoctype(xml)) {
    throw unprocessable('The metadata contains a document type declaration, which is not accepted.');
  }
  const doc = parseXml(xml);
  if (!doc) {
    throw unprocessable(
      "The metadata URL did not answer with XML; is it the address of the identity provider's SAML metadata?",
    );
  }
  const descriptor = elements(doc.getElementsByTagNameNS(MD, 'IDPSSODescriptor'))[0];
  if (!descriptor) {
    throw unprocessable(
      'The XML at the metadata URL holds no identity provider (IDPSSODescriptor); is it the SAML IdP metadata?',
    );
  }
  const entity = descriptor.parentNode;
  const signIn = location(descriptor, 'SingleSignOnService');
  if (!signIn) throw unprocessable('The metadata names no SingleSignOnService location for the identity provider.');
  const entityId = entity?.localName === 'EntityDescriptor' ? entity.getAttribute('entityID')?.trim() || null : null;
  return {
    entityId,
    signIn,
    signOut: location(descriptor, 'SingleLogoutService'),
    certs: signingCertificates(descriptor, now),
  };
}

/** Fetches and reads the metadata at `url`; throws a 4xx ApiError saying what went wrong. */
export async function readMetadataUrl(url: string, now: () => Date, options: FetchOptions): Promise<IdpMetadata> {
  return parseMetadata(await fetchMetadataText(url, options), now());
}
