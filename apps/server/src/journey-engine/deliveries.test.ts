import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { one, run, sql } from '../platform/storage';
import { insertResult } from '../results';
import type { Harness } from '../testing/harness';
import { DAY_MS, json } from './fixture';
import { createJourneyScheduler } from './scheduler';
import {
  type DeliveryScenario,
  queueOffers as queueScenarioOffers,
  startDeliveryScenario,
} from './testing/deliveryScenario';

interface Delivery {
  id: string;
  responseCode: number | null;
  status: string;
  profiles: number;
  target: string | null;
  error: string | null;
}

describe('activation deliveries', () => {
  let h: Harness;
  let T: number;
  let ids: DeliveryScenario['ids'];
  let server: Server | null = null;
  beforeEach(async () => {
    ({ h, T, ids } = await startDeliveryScenario());
  });
  afterEach(async () => {
    await h.close();
    if (server) await new Promise((done) => server?.close(done));
    server = null;
  });

  /** Points the activation at a connection (inserted as an operator would) and delivers at every tick. */
  async function connectTo(url: string) {
    await insertResult(h.deps.storage.db, h.admin.accountId, 'target', url, T);
    const params = {
      connectionId: 'target',
      scheduleType: 'none',
      notifyOn: ['onFailure', 'onSuccess'],
      emailRecipients: ['ops@shop.test'],
    };
    await json(
      h.call('PATCH', `/entities/journeys/${ids.journeyId}/syndications/${ids.activationId}`, {
        json: { type: 'journeyActivationStep', attributes: { syndication_params: params } },
      }),
    );
  }

  const queueOffers = () => queueScenarioOffers({ h, T, ids });

  const deleteTarget = () => run(h.deps.storage.db, sql`DELETE FROM result_connections WHERE name = 'target'`);

  const deliveries = async () =>
    (
      await json<{ data: Delivery[] }>(
        h.call('GET', `/entities/journeys/${ids.journeyId}/syndications/${ids.activationId}/deliveries`),
      )
    ).data;

  async function listen(answers: number[]) {
    const bodies: Array<{ profiles: Array<Record<string, unknown>> }> = [];
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        bodies.push(JSON.parse(raw));
        res.statusCode = answers[bodies.length - 1] ?? 200;
        res.end('internal detail that must not be echoed');
      });
    });
    await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
    return { port: (server.address() as AddressInfo).port, bodies };
  }

  it('posts JSON batches to a webhook, retrying with backoff after two failures', async () => {
    const hook = await listen([500, 503, 200]);
    await connectTo(`http://127.0.0.1:${hook.port}/in`);
    const offered = await queueOffers();
    // As with SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES=1: the webhook listens on the loopback.
    h.deps.config.outbound = { allowPrivateAddresses: true, allowWarehouseLoopback: false };
    const scheduler = createJourneyScheduler(h.deps, { intervalMs: 0 });
    const tickAt = async (ms: number) => {
      h.clock.set(T + 3 * DAY_MS + ms);
      await scheduler.tick();
    };
    await tickAt(0);
    await tickAt(30_000); // within the first minute of backoff: no attempt
    await tickAt(60_000);
    await tickAt(120_000); // the second backoff is 2 minutes
    await tickAt(180_000);
    expect(hook.bodies).toHaveLength(3);
    const list = await deliveries();
    expect(list.map((d) => d.status)).toEqual(['success', 'error', 'error']);
    expect(list[1]?.error).toBe('The webhook answered HTTP 503 to batch 1.');
    expect(JSON.stringify(list)).not.toContain('internal detail');
    expect(hook.bodies[2]?.profiles.map((p) => p.customer_id).sort()).toEqual(offered);
    // Delivered: later ticks send nothing more.
    await tickAt(600_000);
    expect(hook.bodies).toHaveLength(3);
    const outbox = await json<{ data: Array<{ subject: string; recipients: string[] }> }>(
      h.call('GET', `/entities/journeys/${ids.journeyId}/notifications`),
    );
    expect(outbox.data.map((n) => n.subject)).toEqual([
      `Activation "Offer mail" of journey Welcome delivered ${offered.length} profiles`,
      'Activation "Offer mail" of journey Welcome failed',
      'Activation "Offer mail" of journey Welcome failed',
    ]);
    expect(outbox.data[0]?.recipients).toEqual(['ops@shop.test']);
  });

  it('Run now sends the deliveries its run queued, with the response code, and says so', async () => {
    h.deps.config.outbound = { allowPrivateAddresses: true, allowWarehouseLoopback: false };
    const hook = await listen([202]);
    await connectTo(`http://127.0.0.1:${hook.port}/in`);
    h.clock.set(T);
    await json(h.call('POST', `/entities/journeys/${ids.journeyId}/run`));
    h.clock.set(T + 3 * DAY_MS);
    const run = await json<{ data: { queued: number; deliveries: Record<string, unknown> } }>(
      h.call('POST', `/entities/journeys/${ids.journeyId}/run`),
    );
    expect(run.data.queued).toBeGreaterThan(0);
    expect(run.data.deliveries).toEqual({ delivered: run.data.queued, failed: 0, waiting: 0, error: null });
    expect(hook.bodies).toHaveLength(1);
    expect(hook.bodies[0]?.profiles).toHaveLength(run.data.queued);
    const [done] = await deliveries();
    expect(done).toMatchObject({ status: 'success', profiles: run.data.queued, responseCode: 202 });
    // A second run at the same instant queues nothing and sends nothing.
    const again = await json<{ data: { deliveries: Record<string, unknown> } }>(
      h.call('POST', `/entities/journeys/${ids.journeyId}/run`),
    );
    expect(again.data.deliveries).toEqual({ delivered: 0, failed: 0, waiting: 0, error: null });
    expect(hook.bodies).toHaveLength(1);
  });

  it('Run now reports a refused delivery and keeps its profiles queued for the retry', async () => {
    const hook = await listen([200]);
    await connectTo(`http://127.0.0.1:${hook.port}/in`);
    h.clock.set(T);
    await json(h.call('POST', `/entities/journeys/${ids.journeyId}/run`));
    h.clock.set(T + 3 * DAY_MS);
    const run = await json<{ data: { queued: number; deliveries: { failed: number; error: string } } }>(
      h.call('POST', `/entities/journeys/${ids.journeyId}/run`),
    );
    expect(run.data.deliveries.failed).toBe(run.data.queued);
    expect(run.data.deliveries.error).toBe('Webhooks must use HTTPS.');
    expect(hook.bodies).toHaveLength(0);
    const [refused] = await deliveries();
    expect(refused).toMatchObject({ status: 'error', responseCode: null });
  });

  it('sends a test profile to a webhook not saved yet and answers its response code, recording nothing', async () => {
    h.deps.config.outbound = { allowPrivateAddresses: true, allowWarehouseLoopback: false };
    const hook = await listen([201]);
    const test = (json_: unknown) =>
      h.call('POST', `/entities/journeys/${ids.journeyId}/syndications/test`, { json: json_ });
    const answer = await json<{ data: Record<string, unknown> }>(test({ url: `http://127.0.0.1:${hook.port}/in` }));
    expect(answer.data).toEqual({
      status: 'success',
      target: `http://127.0.0.1:${hook.port}`,
      responseCode: 201,
      // A test send shows the start of the answer; delivery records never keep it.
      responseExcerpt: 'internal detail that must not be echoed',
      error: null,
    });
    expect(hook.bodies).toHaveLength(1);
    expect(hook.bodies[0]?.profiles).toEqual([expect.objectContaining({ customer_id: 'p1', vip: 1, test: true })]);
    expect(await deliveries()).toEqual([]);
    // A saved connection is tested by name, and with the operator's allowance it may be private.
    const created = await h.call('POST', '/v3/result/create/local_hook', {
      json: { url: `http://127.0.0.1:${hook.port}/in` },
    });
    expect(created.status).toBe(200);
    const byName = await json<{ data: { status: string } }>(test({ connectionId: 'local_hook' }));
    expect(byName.data.status).toBe('success');
    expect(hook.bodies).toHaveLength(2);

    const csv = await test({ url: 'csv://offers' });
    expect(csv.status).toBe(400);
    expect(await csv.json()).toMatchObject({
      status_code: 400,
      message: expect.stringMatching(/^Test sends go to webhooks/),
    });
    const nothing = await test({});
    expect(nothing.status).toBe(400);
    const unknown = await test({ connectionId: 'nope' });
    expect(((await unknown.json()) as { message: string }).message).toBe(
      'There is no result connection "nope"; choose another.',
    );
  });

  it('refuses a test send and a connection to a loopback address unless the operator allows private ones', async () => {
    const hook = await listen([200]);
    const answer = await json<{ data: { status: string; error: string } }>(
      h.call('POST', `/entities/journeys/${ids.journeyId}/syndications/test`, {
        json: { url: `https://127.0.0.1:${hook.port}/in` },
      }),
    );
    expect(answer.data.status).toBe('error');
    expect(answer.data.error).toContain('loopback or private address');
    expect(hook.bodies).toHaveLength(0);
    const created = await h.call('POST', '/v3/result/create/local_hook', {
      json: { url: `http://127.0.0.1:${hook.port}/in` },
    });
    expect(created.status).toBe(400);
  });

  it('refuses a webhook on a loopback address unless the operator allows private addresses', async () => {
    const hook = await listen([200]);
    await connectTo(`https://127.0.0.1:${hook.port}/in`);
    await queueOffers();
    await createJourneyScheduler(h.deps, { intervalMs: 0 }).tick();
    expect(hook.bodies).toHaveLength(0);
    const [refused] = await deliveries();
    expect(refused?.status).toBe('error');
    expect(refused?.error).toContain('loopback or private address');
  });

  it('refuses every loopback spelling at send, for connections stored before the check', async () => {
    const hook = await listen([200]);
    const forms = ['127.1', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]', 'localhost'];
    await connectTo('csv://placeholder');
    await deleteTarget();
    await queueOffers();
    for (const [i, host] of forms.entries()) {
      await insertResult(h.deps.storage.db, h.admin.accountId, 'target', `https://${host}:${hook.port}/in`, T);
      h.clock.set(T + 3 * DAY_MS + i * 7_200_000);
      await createJourneyScheduler(h.deps, { intervalMs: 0 }).tick();
      await deleteTarget();
    }
    expect(hook.bodies).toHaveLength(0);
    const list = await deliveries();
    expect(list).toHaveLength(forms.length);
    for (const d of list) expect(d.error).toContain('loopback or private address');
  });

  it('keeps a CSV file to download for a csv:// connection', async () => {
    await connectTo('csv://offers');
    const offered = await queueOffers();
    await createJourneyScheduler(h.deps, { intervalMs: 0 }).tick();
    const [done] = await deliveries();
    expect(done).toMatchObject({ status: 'success', profiles: offered.length, target: 'CSV download' });
    const res = await h.call(
      'GET',
      `/entities/journeys/${ids.journeyId}/syndications/${ids.activationId}/deliveries/${done?.id}/file`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]?.split(',').slice(0, 2)).toEqual(['customer_id', 'vip']);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(offered);
  });

  it('records a delivery to a connection type it cannot reach as failed, and keeps the profiles queued', async () => {
    await connectTo('s3://bucket/path');
    await queueOffers();
    await createJourneyScheduler(h.deps, { intervalMs: 0 }).tick();
    const [failed] = await deliveries();
    expect(failed?.error).toMatch(/^Deliveries to "s3" connections are not available/);
    const pending = await one<{ n: number }>(
      h.deps.storage.db,
      sql`SELECT COUNT(*) AS n FROM journey_activation_queue WHERE delivery_id IS NULL`,
    );
    expect(pending?.n).toBeGreaterThan(0);
  });

  it('lists deliveries newest first in keyset pages, by status, and refuses a cursor it did not give', async () => {
    const db = h.deps.storage.db;
    for (let i = 0; i < 5; i++) {
      await run(
        db,
        sql`INSERT INTO journey_deliveries (account_id, journey_id, activation_id, at, status, profiles)
            VALUES (${h.admin.accountId}, ${Number(ids.journeyId)}, ${ids.activationId}, ${T + i},
              ${i % 2 === 0 ? 'success' : 'error'}, ${i + 1})`,
      );
    }
    const base = `/entities/journeys/${ids.journeyId}/syndications/${ids.activationId}/deliveries`;
    type Page = { data: Delivery[]; meta: { next: string | null } };
    const first = await json<Page>(h.call('GET', `${base}?per_page=2`));
    expect(first.data.map((d) => d.profiles)).toEqual([5, 4]);
    const second = await json<Page>(h.call('GET', `${base}?per_page=2&before=${first.meta.next}`));
    expect(second.data.map((d) => d.profiles)).toEqual([3, 2]);
    const last = await json<Page>(h.call('GET', `${base}?per_page=2&before=${second.meta.next}`));
    expect(last.data.map((d) => d.profiles)).toEqual([1]);
    expect(last.meta.next).toBeNull();
    const failed = await json<Page>(h.call('GET', `${base}?status=error&per_page=1`));
    expect(failed.data.map((d) => [d.profiles, d.status])).toEqual([[4, 'error']]);
    const olderFailed = await json<Page>(h.call('GET', `${base}?status=error&before=${failed.meta.next}`));
    expect(olderFailed.data.map((d) => d.profiles)).toEqual([2]);

    for (const [query, message] of [
      ['before=bm90LWFuLWlk', /"before" is "bm90LWFuLWlk", which is not a cursor of this list/],
      ['before=%2B%2B', /pass meta.next of the page before as it is/],
      ['per_page=0', /per_page/],
      ['per_page=501', /per_page/],
      ['status=lost', /status/],
    ] as const) {
      const res = await h.call('GET', `${base}?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: string; message?: string }).message ?? '').toMatch(message);
    }
  });
});
