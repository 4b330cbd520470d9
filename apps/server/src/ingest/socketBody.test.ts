import { request } from 'node:http';
import { ingestLimits } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Listening, listen } from '../testing/clients/tdNode';
import { createHarness, type Harness } from '../testing/harness';

/**
 * Ingestion reads bodies straight from Node's request when the app is served by Node (body.ts): the same limits
 * and answers as in-process, whether the client declares a length or sends the body in chunks.
 */
describe('ingestion bodies read from the socket', () => {
  let h: Harness;
  let server: Listening;
  beforeEach(async () => {
    h = await createHarness();
    await h.call('POST', '/v3/database/create/web_events');
    server = await listen(h);
  });
  afterEach(async () => {
    await server.close();
    await h.close();
  });

  /** Sends `chunks` one by one (chunked when `length` is not declared); resolves with the status and body. */
  const send = (path: string, chunks: string[], headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });
  const postback = (table: string, chunks: string[], extra: Record<string, string> = {}) =>
    send(`/postback/v3/event/web_events/${table}`, chunks, {
      'content-type': 'application/json',
      'x-svc-write-key': h.admin.writeOnlyKey,
      ...extra,
    });
  const count = async (table: string) => {
    const res = await h.call('GET', `/v3/table/show/web_events/${table}`);
    return res.status === 200 ? ((await res.json()) as { count: number }).count : 0;
  };

  it('stores a record sent with a length and one sent in chunks', async () => {
    const body = JSON.stringify({ a: 1, s: 'x'.repeat(100) });
    expect((await postback('clicks', [body], { 'content-length': String(body.length) })).status).toBe(200);
    expect((await postback('clicks', [body.slice(0, 10), body.slice(10)])).status).toBe(200);
    expect(await count('clicks')).toBe(2);
  });

  it('answers 413 with the error body for a record over the limit, declared or chunked, storing nothing', async () => {
    const big = JSON.stringify({ s: 'x'.repeat(ingestLimits.recordBytes) });
    const declared: Record<string, string>[] = [{ 'content-length': String(big.length) }, {}];
    for (const extra of declared) {
      const chunks = [big.slice(0, 512 * 1024), big.slice(512 * 1024)];
      const res = await postback('clicks', chunks, extra);
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ status_code: 413, message: expect.stringContaining('limit') });
    }
    expect(await count('clicks')).toBe(0);
    // The server still answers on a new connection.
    expect((await postback('clicks', ['{"a":1}'])).status).toBe(200);
  });

  it('answers 413 for a records batch sent in chunks past the batch limit', async () => {
    const event = JSON.stringify({ s: 'y'.repeat(1000) });
    const many = `{"events":[${Array(Math.ceil(ingestLimits.batchBytes / 1000) + 10)
      .fill(event)
      .join(',')}]}`;
    const chunks: string[] = [];
    for (let at = 0; at < many.length; at += 1024 * 1024) chunks.push(many.slice(at, at + 1024 * 1024));
    const res = await send('/web_events/batched', chunks, {
      'content-type': 'application/json',
      authorization: `SVC1 ${h.admin.writeOnlyKey}`,
    });
    expect(res.status).toBe(413);
    expect(await count('batched')).toBe(0);
  });
});
