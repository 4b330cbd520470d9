import { X509Certificate } from 'node:crypto';
import type { SsoCertificate } from '@svc/contracts';
import { badRequest } from '../platform/errors';

/** The identity provider's signing certificates: one to five PEM blocks, so a rotation can overlap. */

const MAX_CERTIFICATES = 5;
const MAX_CERT_TEXT = 64 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_WARNING_DAYS = 30;
const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** What a certificate says; when it was first seen is the setting's to tell (settings.ts). */
export type CertificateDetails = Omit<SsoCertificate, 'first_seen_at' | 'rollover'>;

export interface ParsedCertificate {
  pem: string;
  x509: X509Certificate;
  details: CertificateDetails;
}

/** Names in a certificate are `CN=…\nO=…` lines; one line reads better in a list. */
const oneLine = (name: string) => name.split('\n').filter(Boolean).join(', ');

function keyDescription(x509: X509Certificate): string {
  const key = x509.publicKey;
  const d = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa') {
    const bits = d?.modulusLength ?? 0;
    if (bits < 2048) throw badRequest(`"cert" holds an RSA key of ${bits} bits; use at least 2048 bits.`);
    return `RSA ${bits}`;
  }
  if (key.asymmetricKeyType === 'ec') return `EC ${d?.namedCurve ?? ''}`.trim();
  throw badRequest(
    `"cert" holds a ${key.asymmetricKeyType ?? 'unknown'} key; use an RSA (2048 bits or more) or EC key.`,
  );
}

function describe(x509: X509Certificate, now: Date): CertificateDetails {
  const notAfter = new Date(x509.validTo);
  return {
    subject: oneLine(x509.subject),
    issuer: oneLine(x509.issuer),
    serial_number: x509.serialNumber,
    fingerprint_sha256: x509.fingerprint256,
    key: keyDescription(x509),
    not_before: new Date(x509.validFrom).toISOString(),
    not_after: notAfter.toISOString(),
    expires_in_days: Math.floor((notAfter.getTime() - now.getTime()) / DAY_MS),
  };
}

/** Reads stored certificate text (already validated when saved) without judging it again. */
export function readCertificates(text: string, now: Date): ParsedCertificate[] {
  return [...text.matchAll(BLOCK)].map((m) => {
    const x509 = new X509Certificate(m[0]);
    return { pem: m[0], x509, details: describe(x509, now) };
  });
}

/**
 * Validates the `cert` of a setting: PEM certificates only (no keys, no other text), RSA ≥ 2048 or EC, none
 * expired. Returns the parsed certificates and the normalised text to store.
 */
export function parseCertificates(text: string, now: Date): { certs: ParsedCertificate[]; pem: string } {
  if (text.length > MAX_CERT_TEXT) throw badRequest(`"cert" is longer than ${MAX_CERT_TEXT} characters.`);
  const blocks = [...text.matchAll(BLOCK)];
  const leftover = text.replace(BLOCK, '').trim();
  if (blocks.length === 0 || leftover.length > 0) {
    throw badRequest(
      '"cert" must be one or more PEM certificates, each from "-----BEGIN CERTIFICATE-----" to "-----END CERTIFICATE-----", and nothing else.',
    );
  }
  if (blocks.length > MAX_CERTIFICATES) {
    throw badRequest(`"cert" holds ${blocks.length} certificates; send at most ${MAX_CERTIFICATES}.`);
  }
  const certs = blocks.map((m, i) => {
    const label = m[1] as string;
    if (label.includes('PRIVATE KEY')) {
      throw badRequest('"cert" holds a private key. Never send it: paste the identity provider\'s certificate.');
    }
    if (label !== 'CERTIFICATE') {
      throw badRequest(`"cert" holds a "${label}" block; only CERTIFICATE blocks are accepted.`);
    }
    let x509: X509Certificate;
    try {
      x509 = new X509Certificate(m[0]);
    } catch {
      throw badRequest(`Certificate ${i + 1} of "cert" could not be read: it is not a valid X.509 certificate.`);
    }
    const details = describe(x509, now);
    if (new Date(x509.validTo).getTime() <= now.getTime()) {
      throw badRequest(
        `Certificate ${i + 1} of "cert" (${details.subject}) expired on ${details.not_after}. Ask the identity provider for its current certificate.`,
      );
    }
    return { pem: m[0], x509, details };
  });
  return { certs, pem: certs.map((c) => c.pem).join('\n') };
}

/** Certificates that can be trusted at this instant. */
export function validNow(certs: ParsedCertificate[], now: Date): ParsedCertificate[] {
  const t = now.getTime();
  return certs.filter((c) => new Date(c.x509.validFrom).getTime() <= t && t < new Date(c.x509.validTo).getTime());
}

/** Sentences for the console and the API response about certificates nearing or past their end. */
export function certificateWarnings(certs: ParsedCertificate[]): string[] {
  return certs.flatMap(({ details }) => {
    if (details.expires_in_days < 0)
      return [`The certificate ${details.subject} has expired; sign-in with it is refused.`];
    if (details.expires_in_days < EXPIRY_WARNING_DAYS) {
      return [
        `The certificate ${details.subject} expires in ${details.expires_in_days} days (${details.not_after}). Add the identity provider's next certificate before then.`,
      ];
    }
    return [];
  });
}
