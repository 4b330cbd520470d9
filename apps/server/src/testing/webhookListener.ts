import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on the loopback standing in for a webhook: it records each request and answers as told. */

export interface HeardRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  location?: string;
}

export interface WebhookListener {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  heard: HeardRequest[];
  close(): Promise<void>;
}

/** `answer(n)` for the n-th request (from 1); null leaves it unanswered. The body says what tests must never echo. */
export async function listenForWebhooks(answer: (n: number) => Answer | null = () => ({ status: 200 })) {
  const heard: HeardRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      heard.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      const a = answer(heard.length);
      if (a === null) return;
      if (a.location) res.setHeader('location', a.location);
      res.statusCode = a.status;
      res.end('internal detail that must not be echoed');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const listener: WebhookListener = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    heard,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
  return listener;
}
