import { webcrypto } from 'node:crypto';
import { createRequire } from 'node:module';
import { inflateRawSync } from 'node:zlib';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

/**
 * A real SAML identity provider for tests (unit and browser): samlify signs responses with a key and a
 * certificate made at test time. Nothing comes from the network. Test code only.
 */

// samlify's typings pull the browser DOM library into the whole program, so it is loaded untyped.
interface Samlify {
  IdentityProvider(settings: Record<string, unknown>): SamlifyIdp;
  ServiceProvider(settings: Record<string, unknown>): unknown;
  Constants: { namespace: { binding: { post: string } } };
  setSchemaValidator(v: { validate: (xml: string) => Promise<string> }): void;
}
interface SamlifyIdp {
  createLoginResponse(
    sp: unknown,
    requestInfo: unknown,
    binding: string,
    user: unknown,
    options: { customTagReplacement: (template: string) => { id: string; context: string } },
  ): Promise<{ context: string }>;
}
const samlify = createRequire(import.meta.url)('samlify') as Samlify;
// The test IdP never parses inbound XML with samlify; its validator hook is required but unused.
samlify.setSchemaValidator({ validate: async () => 'skipped' });

// The typings want the DOM `Crypto`, which Node's webcrypto is at run time.
x509.cryptoProvider.set(webcrypto as never);

const DAY = 24 * 60 * 60 * 1000;

export interface KeyAndCert {
  privateKeyPem: string;
  certPem: string;
}

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim()}\n-----END ${label}-----\n`;

/** An RSA 2048 key and a self-signed certificate valid from `notBefore` to `notAfter`. */
export async function makeKeyAndCert(
  opts: { commonName?: string; notBefore?: Date; notAfter?: Date; bits?: number } = {},
): Promise<KeyAndCert> {
  const alg = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: opts.bits ?? 2048,
  };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex'),
    name: `CN=${opts.commonName ?? 'Test IdP'}, O=Tests`,
    notBefore: opts.notBefore ?? new Date(now - DAY),
    notAfter: opts.notAfter ?? new Date(now + 365 * DAY),
    signingAlgorithm: alg,
    keys,
  });
  return {
    privateKeyPem: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certPem: cert.toString('pem'),
  };
}

/** What the service provider asked for, read from the Redirect-binding URL it sent the browser to. */
export interface AuthnRequestInfo {
  id: string;
  acsUrl: string;
  issuer: string;
  relayState: string;
}

export function readAuthnRequest(redirectUrl: string): AuthnRequestInfo {
  const url = new URL(redirectUrl);
  const encoded = url.searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${redirectUrl}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  return {
    id: attr('ID'),
    acsUrl: attr('AssertionConsumerServiceURL'),
    issuer: /<saml:Issuer[^>]*>([^<]*)<\/saml:Issuer>/.exec(xml)?.[1] ?? '',
    relayState: url.searchParams.get('RelayState') ?? '',
  };
}

export interface ResponseOptions {
  /** The user's NameID (the SSO identifier). */
  nameId: string;
  inResponseTo: string;
  acsUrl: string;
  audience: string;
  destination?: string;
  recipient?: string;
  issuer?: string;
  /** When the assertion was issued; validity runs five minutes from here. */
  issuedAt?: Date;
  assertionId?: string;
  /** The XML signature algorithm (samlify derives the digest from it); RSA-SHA256 when absent. */
  signatureAlgorithm?: string;
  /** The signature's reference transforms; enveloped-signature and exc-c14n when absent. */
  transforms?: string[];
  /** Attributes of the assertion (an AttributeStatement), by name. */
  attributes?: Record<string, string | string[]>;
}

const escapeXml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] as string,
  );

function attributeStatement(attributes: Record<string, string | string[]> | undefined): string {
  if (!attributes || Object.keys(attributes).length === 0) return '';
  const one = (name: string, values: string[]) =>
    `<saml:Attribute Name="${escapeXml(name)}">${values
      .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(v)}</saml:AttributeValue>`)
      .join('')}</saml:Attribute>`;
  const body = Object.entries(attributes)
    .map(([name, v]) => one(name, Array.isArray(v) ? v : [v]))
    .join('');
  return `<saml:AttributeStatement>${body}</saml:AttributeStatement>`;
}

export class TestIdp {
  readonly signInEndpoint: string;
  private readonly idp: SamlifyIdp;
  private counter = 0;

  constructor(
    readonly entityId: string,
    readonly keys: KeyAndCert,
    signInEndpoint = 'https://idp.example.test/sso',
  ) {
    this.signInEndpoint = signInEndpoint;
    this.idp = this.provider();
  }

  private provider(signatureAlgorithm?: string): SamlifyIdp {
    const { entityId, keys, signInEndpoint } = this;
    return samlify.IdentityProvider({
      ...(signatureAlgorithm ? { requestSignatureAlgorithm: signatureAlgorithm } : {}),
      entityID: entityId,
      privateKey: keys.privateKeyPem,
      signingCert: keys.certPem,
      singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.post, Location: signInEndpoint }],
      singleLogoutService: [
        { Binding: samlify.Constants.namespace.binding.post, Location: `${signInEndpoint}/logout` },
      ],
    });
  }

  static async create(
    opts: { entityId?: string; signInEndpoint?: string; cert?: Parameters<typeof makeKeyAndCert>[0] } = {},
  ) {
    return new TestIdp(
      opts.entityId ?? 'https://idp.example.test/metadata',
      await makeKeyAndCert(opts.cert),
      opts.signInEndpoint,
    );
  }

  /** A base64 SAMLResponse, response and assertion both signed, as a real identity provider posts it. */
  async respond(o: ResponseOptions): Promise<string> {
    const sp = samlify.ServiceProvider({
      entityID: o.audience,
      assertionConsumerService: [{ Binding: samlify.Constants.namespace.binding.post, Location: o.acsUrl }],
      wantAssertionsSigned: true,
      wantMessageSigned: true,
      ...(o.transforms ? { transformationAlgorithms: o.transforms } : {}),
    });
    const signer = o.signatureAlgorithm ? this.provider(o.signatureAlgorithm) : this.idp;
    const issued = o.issuedAt ?? new Date();
    const until = new Date(issued.getTime() + 5 * 60 * 1000).toISOString();
    const id = `_r${Date.now().toString(36)}${++this.counter}`;
    // Values are escaped here; AuthnStatement is markup on purpose.
    const values: Record<string, string> = {
      ID: id,
      AssertionID: o.assertionId ?? `_a${Date.now().toString(36)}${this.counter}${Math.random().toString(36).slice(2)}`,
      Destination: escapeXml(o.destination ?? o.acsUrl),
      Audience: escapeXml(o.audience),
      SubjectRecipient: escapeXml(o.recipient ?? o.destination ?? o.acsUrl),
      Issuer: escapeXml(o.issuer ?? this.entityId),
      IssueInstant: issued.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: issued.toISOString(),
      ConditionsNotOnOrAfter: until,
      SubjectConfirmationDataNotOnOrAfter: until,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
      NameID: escapeXml(o.nameId),
      InResponseTo: escapeXml(o.inResponseTo),
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${issued.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: attributeStatement(o.attributes),
    };
    const { context } = await signer.createLoginResponse(
      sp,
      { extract: { request: { id: o.inResponseTo } } },
      'post',
      { email: o.nameId },
      {
        customTagReplacement: (template) => ({
          id,
          context: template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? ''),
        }),
      },
    );
    return context;
  }
}

/** An HTML page that posts the response to the consumer at once, as identity providers do. */
export function autoPostPage(acsUrl: string, samlResponse: string, relayState: string): string {
  return `<!doctype html><html><body onload="document.forms[0].submit()">
<form method="post" action="${escapeXml(acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${escapeXml(samlResponse)}">
<input type="hidden" name="RelayState" value="${escapeXml(relayState)}">
<noscript><button type="submit">Continue</button></noscript>
</form></body></html>`;
}
