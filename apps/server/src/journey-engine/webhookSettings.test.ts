import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { one, sql } from '../platform/storage';
import { insertResult } from '../results';
import type { Harness } from '../testing/harness';
import { json } from './fixture';
import { createJourneyScheduler } from './scheduler';
import { type DeliveryScenario, queueOffers, startDeliveryScenario } from './testing/deliveryScenario';

interface Heard {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const SECRET = 'Bearer s3cr3t-token-0123456789';
const TEMPLATE =
  '{"email": "{{customer_id}}@shop.test", "tier": "{{attributes.vip}}", "vip": {{vip}}, "test": {{test}}}';

describe('webhook method, headers and body template', () => {
  // The listener of a test, closed after it.
  let server: Server | null = null;
  let h: Harness;
  let ids: DeliveryScenario['ids'];
  let T: number;
  beforeEach(async () => {
    ({ h, T, ids } = await startDeliveryScenario());
    h.deps.config.outbound = { allowPrivateAddresses: true, allowWarehouseLoopback: false };
  });
  afterEach(async () => {
    await h.close();
    if (server) await new Promise((done) => server?.close(done));
    server = null;
  });

  async function listen(status = 200) {
    const heard: Heard[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        heard.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.statusCode = status;
        res.end(JSON.stringify({ accepted: true, echo: body.length }));
      });
    });
    await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, heard };
  }

  const patchActivation = (params: Record<string, unknown>) =>
    h.call('PATCH', `/entities/journeys/${ids.journeyId}/syndications/${ids.activationId}`, {
      json: { type: 'journeyActivationStep', attributes: { syndication_params: params } },
    });
  const test = (body: unknown) =>
    h.call('POST', `/entities/journeys/${ids.journeyId}/syndications/test`, { json: body });

  it('sends a test with the typed method, header and filled template, and shows the answer', async () => {
    const hook = await listen(201);
    const answer = await json<{ data: Record<string, unknown> }>(
      test({
        url: hook.url,
        connectorConfig: { method: 'PUT', headers: [{ name: 'Authorization', value: SECRET }], bodyTemplate: TEMPLATE },
      }),
    );
    expect(answer.data).toMatchObject({ status: 'success', responseCode: 201, error: null });
    expect(answer.data.responseExcerpt).toContain('"accepted":true');
    expect(hook.heard).toHaveLength(1);
    const [req] = hook.heard;
    expect(req?.method).toBe('PUT');
    expect(req?.headers.authorization).toBe(SECRET);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req?.body ?? '')).toEqual({ email: 'p1@shop.test', tier: '1', vip: 1, test: true });
  });

  it('refuses a test whose template names an unknown field, naming it, and sends nothing', async () => {
    const hook = await listen();
    const res = await test({ url: hook.url, connectorConfig: { bodyTemplate: '{"x": "{{loyalty}}"}' } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string; details: { violations: Array<{ code: string }> } };
    expect(body.message).toContain('"loyalty"');
    expect(body.details.violations[0]?.code).toBe('activation.body_template');
    expect(hook.heard).toHaveLength(0);
  });

  it('delivers each profile as its own request with the saved settings; the stored header opens only to send', async () => {
    const hook = await listen();
    await insertResult(h.deps.storage.db, h.admin.accountId, 'target', hook.url, T);
    const saved = await patchActivation({
      connectionId: 'target',
      scheduleType: 'none',
      connectorConfig: { method: 'PATCH', headers: [{ name: 'X-Api-Key', value: SECRET }], bodyTemplate: TEMPLATE },
    });
    expect(saved.status).toBe(200);
    const text = await saved.text();
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text).data.attributes.syndication_params.connectorConfig.headers).toEqual([
      { name: 'X-Api-Key', value: null, masked: '••••••••6789', set: true },
    ]);
    const row = await one<{ params: string }>(
      h.deps.storage.db,
      sql`SELECT params FROM journey_activations WHERE id = ${Number(ids.activationId)}`,
    );
    expect(row?.params).not.toContain('s3cr3t');

    // A test of the saved activation uses its stored header value.
    await json(test({ connectionId: 'target', activationId: ids.activationId }));
    expect(hook.heard[0]?.headers['x-api-key']).toBe(SECRET);
    expect(hook.heard[0]?.method).toBe('PATCH');

    const queued = await queueOffers({ h, T, ids });
    await createJourneyScheduler(h.deps, { intervalMs: 0 }).tick();
    const real = hook.heard.slice(1);
    expect(real).toHaveLength(queued.length);
    for (const req of real) {
      expect(req.method).toBe('PATCH');
      expect(req.headers['x-api-key']).toBe(SECRET);
    }
    const emails = real.map((r) => (JSON.parse(r.body) as { email: string }).email).sort();
    expect(emails).toEqual(queued.map((key) => `${key}@shop.test`));
    expect(JSON.parse(real[0]?.body ?? '')).toMatchObject({ vip: 1, test: false });
    expect(h.logs.join('\n')).not.toContain('s3cr3t');
  });

  it('keeps a header value when a change sends the header without one, and refuses a header never given', async () => {
    const hook = await listen();
    await insertResult(h.deps.storage.db, h.admin.accountId, 'target', hook.url, T);
    const first = await patchActivation({
      connectionId: 'target',
      connectorConfig: { headers: [{ name: 'Authorization', value: SECRET }] },
    });
    expect(first.status).toBe(200);
    const kept = await patchActivation({
      connectorConfig: { method: 'PUT', headers: [{ name: 'Authorization', masked: '••••••••6789', set: true }] },
    });
    expect(kept.status).toBe(200);
    await json(test({ connectionId: 'target', activationId: ids.activationId }));
    expect(hook.heard[0]).toMatchObject({ method: 'PUT', headers: expect.objectContaining({ authorization: SECRET }) });
    const missing = await patchActivation({ connectorConfig: { headers: [{ name: 'X-Other' }] } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toContain('"X-Other" has no value');
  });
});
