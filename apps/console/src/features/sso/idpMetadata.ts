/** The fields of an identity provider's SAML metadata that fill the SSO setting form. */
export interface IdpMetadataFields {
  entityId: string | null;
  signInEndpoint: string | null;
  signOutEndpoint: string | null;
  cert: string | null;
}

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

function pem(base64: string): string {
  const body = base64.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').trim()}\n-----END CERTIFICATE-----`;
}

/** Prefers the Redirect binding, which is the one the service provider uses. */
function location(descriptor: Element, tag: string): string | null {
  const services = [...descriptor.getElementsByTagNameNS(MD, tag)];
  const chosen = services.find((s) => s.getAttribute('Binding') === REDIRECT) ?? services[0];
  return chosen?.getAttribute('Location') ?? null;
}

/** Reads IdP metadata XML in the browser; throws an Error with a sentence when it is not IdP metadata. */
export function parseIdpMetadata(xml: string): IdpMetadataFields {
  if (/<!DOCTYPE/i.test(xml)) throw new Error('The metadata contains a DOCTYPE declaration, which is not accepted.');
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) throw new Error('The file is not well-formed XML.');
  const descriptor = doc.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!descriptor) throw new Error('The XML holds no identity provider (IDPSSODescriptor). Is it the IdP metadata?');
  const entity = descriptor.closest('EntityDescriptor') ?? doc.documentElement;
  const certs = [...descriptor.getElementsByTagNameNS(MD, 'KeyDescriptor')]
    .filter((k) => (k.getAttribute('use') ?? 'signing') === 'signing')
    .flatMap((k) => [...k.getElementsByTagNameNS(DS, 'X509Certificate')].map((c) => pem(c.textContent ?? '')));
  return {
    entityId: entity?.getAttribute('entityID') ?? null,
    signInEndpoint: location(descriptor, 'SingleSignOnService'),
    signOutEndpoint: location(descriptor, 'SingleLogoutService'),
    cert: certs.length ? [...new Set(certs)].join('\n') : null,
  };
}
