import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';

/**
 * A request refused before its body is read (no key, a part over the limit) answers `Connection: close`,
 * so a pooling client does not send its next request down a socket the server is about to drop.
 */
describe('early refusals of uploads', () => {
  let h: Harness;
  let server: ReturnType<typeof serve>;
  let port: number;
  beforeEach(async () => {
    h = await createHarness();
    await new Promise<void>((ready) => {
      server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' }, () => ready());
    });
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    (server as import('node:http').Server).closeAllConnections();
    await new Promise((done) => server.close(done));
    h.close();
  });

  const UPLOAD = '/v3/bulk_import/upload_part/s1/p1';

  it('answers Connection: close and closes the socket', async () => {
    const socket = connect(port, '127.0.0.1');
    const head = [
      `PUT ${UPLOAD} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Authorization: SVC1 1/0000000000000000000000000000000000000000',
      'Content-Type: application/octet-stream',
      'Content-Length: 10000000',
      '',
      '',
    ].join('\r\n');
    socket.write(head);
    socket.write(Buffer.alloc(4096, 7));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    // The server ends the connection itself after the answer: 'end' comes without the client closing.
    await new Promise<void>((done) => socket.on('end', () => done()));
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 401/);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text.toLowerCase()).not.toContain('keep-alive');
  });

  it("lets a pooled client's next request through on a fresh connection", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (opts: { method: string; path: string; headers?: Record<string, string | number> }, body?: Buffer) =>
      new Promise<{ res: IncomingMessage; localPort: number | undefined }>((done, fail) => {
        const req = httpRequest({ port, host: '127.0.0.1', agent, ...opts }, (res) => {
          const localPort = req.socket?.localPort;
          res.resume();
          res.on('end', () => {
            // A slow uploader: the rest of the body follows the answer.
            if (body) req.end(body.subarray(1024));
            done({ res, localPort });
          });
        });
        req.on('error', fail);
        if (body) req.write(body.subarray(0, 1024));
        else req.end();
      });
    const body = Buffer.alloc(512 * 1024, 3);
    const first = await send(
      {
        method: 'PUT',
        path: UPLOAD,
        headers: { authorization: `SVC1 ${h.admin.masterKey}`, 'content-length': body.length },
      },
      body,
    );
    expect(first.res.statusCode).toBe(404);
    expect(first.res.headers.connection).toBe('close');
    const second = await send({ method: 'GET', path: '/v3/system/server_status' });
    expect(second.res.statusCode).toBe(200);
    // Not the socket of the refused upload.
    expect(second.localPort).not.toBe(first.localPort);
    agent.destroy();
  });
});
