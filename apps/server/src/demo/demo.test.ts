import type { DemoDeleted, DemoStatus, JourneyDelivery, JourneyStatistics } from '@svc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { generateDemoData } from './generate';
import { DEMO_DATABASE, type DemoSummary, demoEnabled, seedDemo } from './index';

type Json = Record<string, unknown>;

async function ok<T = Json>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(200);
  return JSON.parse(text) as T;
}

/** One number from a query job over the demo database: the direct query the segment counts are checked by. */
async function count(h: Harness, sql: string): Promise<number> {
  const job = await ok<{ job_id: string }>(
    h.call('POST', `/v3/job/issue/presto/${DEMO_DATABASE}`, { json: { query: sql } }),
  );
  expect(await h.app.services.jobs.whenSettled(Number(job.job_id))).toBe('success');
  const rows = await (await h.call('GET', `/v3/job/result/${job.job_id}?format=json`)).text();
  return (JSON.parse(rows.trim()) as [number])[0];
}

describe('the living demo of the first start', () => {
  let h: Harness;
  let demo: DemoSummary;
  let seconds: number;
  const now = () => Math.floor(h.clock.now().getTime() / 1000);

  beforeAll(async () => {
    h = await createHarness();
    const started = Date.now();
    demo = await seedDemo(h.app, h.deps, {
      accountId: h.admin.accountId,
      authorization: `SVC1 ${h.admin.masterKey}`,
    });
    seconds = (Date.now() - started) / 1000;
  }, 300_000);
  afterAll(() => h?.close());

  it('fills an empty data directory with about 100,000 sample rows, through the API', async () => {
    expect(demo.rows).toBeGreaterThan(90_000);
    expect(demo.rows).toBeLessThan(110_000);
    const tables = await ok<{ tables: Array<{ name: string; count: number }> }>(
      h.call('GET', `/v3/table/list/${DEMO_DATABASE}`),
    );
    const counts = new Map(tables.tables.map((t) => [t.name, t.count]));
    expect(counts.get('customers')).toBe(5_000);
    const sample = ['customers', 'orders', 'pageviews'].map((t) => counts.get(t) ?? 0);
    expect(sample.reduce((a, b) => a + b, 0)).toBe(demo.rows);
    // Printed so the figure in the report can be checked: the whole demo, build and journey run included.
    console.info(`demo seeded: ${demo.rows} rows in ${seconds.toFixed(1)} s`);
  });

  it('is generated deterministically', () => {
    const a = generateDemoData(now(), 200);
    expect(generateDemoData(now(), 200)).toEqual(a);
    expect(generateDemoData(now(), 200, 7)).not.toEqual(a);
    for (const order of a.orders) expect(order.time).toBeLessThanOrEqual(now());
  });

  it('has a built parent segment whose three segment counts match a direct query', async () => {
    const parent = await ok(h.call('GET', `/audiences/${demo.parentSegmentId}`));
    expect(parent).toMatchObject({ name: 'Demo · Shop customers', population: 5_000, buildStatus: 'success' });
    expect((parent.behaviors as Json[]).map((b) => b.name)).toEqual(['orders', 'page_views']);
    const population = async (segmentId: string) =>
      (
        await ok<{ population: number }>(
          h.call('GET', `/audiences/${demo.parentSegmentId}/segments/${segmentId}/population`),
        )
      ).population;
    const [recent, store, repeat] = demo.segmentIds as [string, string, string];
    const from = now() - 30 * 86_400;
    const expected = {
      recent: await count(h, `SELECT COUNT(*) FROM customers WHERE signup_time >= ${from} AND signup_time <= ${now()}`),
      store: await count(h, "SELECT COUNT(*) FROM customers WHERE channel = 'store'"),
      repeat: await count(
        h,
        `SELECT COUNT(*) FROM (SELECT customer_id FROM orders WHERE status = 'paid' AND time >= ${now() - 60 * 86_400} GROUP BY customer_id HAVING COUNT(*) >= 2) t`,
      ),
    };
    expect(expected.recent).toBeGreaterThan(1_000);
    expect(expected.store).toBeGreaterThan(100);
    expect(expected.repeat).toBeGreaterThan(100);
    expect({
      recent: await population(recent),
      store: await population(store),
      repeat: await population(repeat),
    }).toEqual(expected);
  });

  it('has a launched journey that was run: profiles entered, statistics and table deliveries show', async () => {
    const journey = await ok<{ data: { attributes: Json } }>(h.call('GET', `/entities/journeys/${demo.journeyId}`));
    expect(journey.data.attributes).toMatchObject({ state: 'launched', name: 'Demo · Welcome to repeat purchase' });
    expect(journey.data.attributes.journeyStages).toHaveLength(2);
    const stats = await ok<{ data: JourneyStatistics }>(
      h.call('GET', `/entities/journeys/${demo.journeyId}/statistics`),
    );
    // Everyone in either stage's entry segment entered: new customers, or repeat buyers (straight into stage 2).
    const entering = await count(
      h,
      `SELECT COUNT(*) FROM customers WHERE (signup_time >= ${now() - 30 * 86_400} AND signup_time <= ${now()}) OR customer_id IN (SELECT customer_id FROM orders WHERE status = 'paid' GROUP BY customer_id HAVING COUNT(*) >= 2)`,
    );
    expect(entering).toBeGreaterThan(1_000);
    expect(stats.data.entered).toBe(entering);
    expect(stats.data.stages.length).toBe(2);
    const customers = await ok<{ data: unknown[] }>(h.call('GET', `/entities/journeys/${demo.journeyId}/customers`));
    expect(customers.data.length).toBeGreaterThan(0);
    const deliveries = await ok<{ data: JourneyDelivery[] }>(
      h.call('GET', `/entities/journeys/${demo.journeyId}/syndications/${demo.activationIds.welcome}/deliveries`),
    );
    expect(deliveries.data[0], deliveries.data[0]?.error ?? '').toMatchObject({
      status: 'success',
      target: `${DEMO_DATABASE}.welcome_list`,
    });
    expect(deliveries.data[0]?.profiles).toBeGreaterThan(0);
    const job = await ok<{ status: string; debug: { stderr: string } }>(
      h.call('GET', `/v3/job/show/${demo.queryJobId}`),
    );
    expect(job.status, job.debug.stderr).toBe('success');
  });

  it('lists itself, refuses deletion to a write-only key and a non-administrator, and deletes in one action', async () => {
    const status = await ok<DemoStatus>(h.call('GET', '/entities/demo'));
    expect(status.items.map((i) => i.kind)).toEqual([
      'database',
      'connection',
      'connection',
      'parentSegment',
      'journey',
      'queryJob',
    ]);
    expect((await h.call('DELETE', '/entities/demo', { key: h.admin.writeOnlyKey })).status).toBe(403);
    expect((await h.call('DELETE', '/entities/demo', { key: null })).status).toBe(401);
    await ok(
      h.call('POST', '/v3/user/add/viewer', { form: { email: 'viewer@first.test', password: 'long enough pw' } }),
    );
    const { apikey } = await ok<{ apikey: string }>(h.call('POST', '/v3/user/apikey/add/viewer'));
    const refused = await h.call('DELETE', '/entities/demo', { key: apikey });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/administrator/);
    // Another account sees no demo of this one.
    const other = await h.newAccount('Other');
    expect(await ok<DemoStatus>(h.call('GET', '/entities/demo', { key: other.masterKey }))).toEqual({ items: [] });

    const deleted = await ok<DemoDeleted>(h.call('DELETE', '/entities/demo'));
    expect(deleted.deleted).toHaveLength(6);
    expect(await ok<DemoStatus>(h.call('GET', '/entities/demo'))).toEqual({ items: [] });
    expect((await h.call('GET', `/entities/journeys/${demo.journeyId}`)).status).toBe(404);
    expect((await h.call('GET', `/audiences/${demo.parentSegmentId}`)).status).toBe(404);
    expect((await h.call('GET', `/v3/database/show/${DEMO_DATABASE}`)).status).toBe(404);
    const results = await ok<{ results: Array<{ name: string }> }>(h.call('GET', '/v3/result/list'));
    expect(results.results.map((r) => r.name)).not.toContain('demo_welcome_list');
    // The query job stays in the history; deleting again is a no-op.
    expect((await h.call('GET', `/v3/job/show/${demo.queryJobId}`)).status).toBe(200);
    expect(await ok<DemoDeleted>(h.call('DELETE', '/entities/demo'))).toEqual({ deleted: [] });
  });

  it('can be created again through the API, once, and stops with a clear 409 on a name already taken', async () => {
    expect((await h.call('POST', '/entities/demo', { key: h.admin.writeOnlyKey })).status).toBe(403);
    const again = await ok<DemoStatus>(h.call('POST', '/entities/demo'));
    expect(again.items).toHaveLength(6);
    const twice = await h.call('POST', '/entities/demo');
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { message: string }).message).toMatch(/already in this account; delete it first/);

    const other = await h.newAccount('Taken');
    await ok(h.call('POST', `/v3/database/create/${DEMO_DATABASE}`, { key: other.masterKey }));
    const taken = await h.call('POST', '/entities/demo', { key: other.masterKey });
    const body = (await taken.json()) as { message: string; status_code: number };
    expect(taken.status).toBe(409);
    expect(body.status_code).toBe(409);
    expect(body.message).toContain(`/v3/database/create/${DEMO_DATABASE}`);
    expect(await ok<DemoStatus>(h.call('GET', '/entities/demo', { key: other.masterKey }))).toEqual({ items: [] });
  }, 120_000);

  it('is off with SVC_DEMO=0', () => {
    expect(demoEnabled({})).toBe(true);
    expect(demoEnabled({ SVC_DEMO: '1' })).toBe(true);
    expect(demoEnabled({ SVC_DEMO: '0' })).toBe(false);
    expect(demoEnabled({ SVC_DEMO: 'off' })).toBe(false);
  });
});
