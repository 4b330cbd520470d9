import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server for IdP metadata in tests (unit and browser): each path answers what the test set,
 * and the metadata can change between fetches, as an identity provider's does in a certificate rollover.
 * Test code only.
 */

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (a stuck identity provider). */
  hang?: boolean;
}

/** SAML IdP metadata XML naming the entity, its sign-in location and its signing certificates (PEM). */
export function idpMetadataXml(entityId: string, signIn: string, certPems: string[]): string {
  const keys = certPems
    .map((pem) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, ''))
    .map(
      (body) =>
        `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${signIn}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${signIn}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

export class MetadataServer {
  private readonly answers = new Map<string, Answer>();
  /** How many requests each path received. */
  readonly hits = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<MetadataServer> {
    let self: MetadataServer | null = null;
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0] as string;
      self?.hits.set(path, (self.hits.get(path) ?? 0) + 1);
      const answer = self?.answers.get(path) ?? { status: 404, body: 'not found' };
      if (answer.hang) return;
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/samlmetadata+xml', ...answer.headers });
      res.end(answer.body ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new MetadataServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** What `path` answers from now on. */
  serve(path: string, answer: Answer): string {
    this.answers.set(path, answer);
    return `${this.origin}${path}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
