import { jobList, scheduleHistory } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STRICT_OUTBOUND } from '../platform/addressPolicy';
import { insertResult } from '../results';
import { createHarness, type Harness } from '../testing/harness';
import { listenForWebhooks, type WebhookListener } from '../testing/webhookListener';
import { errorOf, run, show, tableWithRows } from './testing/jobs';

/** A query job's result sent to a webhook (`result` / `result_url`, `td query -r`, schedules), to a real local server. */

interface Batch {
  job_id: string;
  database: string;
  columns: string[];
  batch: number;
  batches: number;
  rows: unknown[];
}

const ROWS = Array.from({ length: 2500 }, (_, i) => ({ time: 1_700_000_000 + i, path: `/p${i % 7}`, ms: i }));
const ALL = 'SELECT path, ms FROM pageviews ORDER BY ms';
const ALLOW_PRIVATE = { allowPrivateAddresses: true, allowWarehouseLoopback: false };

let h: Harness;
let listener: WebhookListener;
let answers: number[];
let hook: string;
/** What the webhook was sent: method, path and query, content type, body. */
const received = () =>
  listener.heard.map((r) => ({
    method: r.method,
    url: r.url,
    contentType: r.headers['content-type'],
    body: JSON.parse(r.body) as Batch,
  }));

beforeEach(async () => {
  // As with SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES=1: the webhook listens on the loopback.
  h = await createHarness({ outbound: ALLOW_PRIVATE });
  await tableWithRows(h, 'web', 'pageviews', ROWS);
  answers = [];
  listener = await listenForWebhooks((n) => ({ status: answers[n - 1] ?? 200 }));
  hook = listener.origin;
}, 30_000);
afterEach(async () => {
  await h.close();
  await listener.close();
});

const jobCount = async () => jobList.parse(await (await h.call('GET', '/v3/job/list')).json()).count;

describe('result output to a webhook', () => {
  it('posts the rows as JSON batches to a webhook given directly, and shows the target masked', async () => {
    const { id, status } = await run(h, 'web', ALL, {
      form: { query: ALL, type: 'presto', result: `${hook}/in?token=s3cret&kind=rows` },
    });
    expect(status).toBe('success');
    expect(received().map((r) => [r.method, r.url, r.contentType])).toEqual(
      Array(3).fill(['POST', '/in?token=s3cret&kind=rows', 'application/json']),
    );
    expect(received().map((r) => [r.body.batch, r.body.batches, r.body.rows.length])).toEqual([
      [1, 3, 1000],
      [2, 3, 1000],
      [3, 3, 500],
    ]);
    expect(received()[0]?.body).toMatchObject({ job_id: id, database: 'web', columns: ['path', 'ms'] });
    const sent = received().flatMap((r) => r.body.rows);
    expect(sent[0]).toEqual({ path: '/p0', ms: 0 });
    expect(sent).toEqual(ROWS.map(({ path, ms }) => ({ path, ms })));
    const job = await show(h, id);
    expect(job.result).toBe(`${hook}/in?token=***&kind=rows`);
    expect(job.debug.cmdout).toContain(`2500 rows sent to the webhook ${hook} in 3 batches (HTTP 200)`);
    expect(JSON.stringify(job)).not.toContain('s3cret');
  });

  it('sends through a saved result connection, from job issue and from a scheduled query', async () => {
    expect((await h.call('POST', '/v3/result/create/hook', { form: { url: `${hook}/rows?apikey=k3y` } })).status).toBe(
      200,
    );
    const query = "SELECT path, count(*) AS n FROM pageviews WHERE path = '/p1' GROUP BY path";
    const { id, status } = await run(h, 'web', query, { json: { query, result_url: 'hook' } });
    expect(status).toBe('success');
    expect((await show(h, id)).result).toBe('hook');
    expect(received().map((r) => r.body.rows)).toEqual([[{ path: '/p1', n: 357 }]]);

    const created = await h.call('POST', '/v3/schedule/create/nightly', {
      form: { database: 'web', cron: '0 3 * * *', query, type: 'presto', result: 'hook' },
    });
    expect(created.status).toBe(200);
    expect((await h.call('POST', '/v3/schedule/run/nightly/1767225600')).status).toBe(200);
    const [ran] = scheduleHistory.parse(await (await h.call('GET', '/v3/schedule/history/nightly')).json()).history;
    expect(await h.app.services.jobs.whenSettled(Number(ran?.job_id))).toBe('success');
    expect(received()).toHaveLength(2);
    expect(received()[1]?.url).toBe('/rows?apikey=k3y');
    expect(received()[1]?.body).toMatchObject({ job_id: ran?.job_id, rows: [{ path: '/p1', n: 357 }] });
  });

  it('fails the job with a message naming the webhook when it answers an error, echoing neither its answer nor its path', async () => {
    answers = [200, 503];
    const { id, status } = await run(h, 'web', ALL, { json: { query: ALL, result: `${hook}/secret-path` } });
    expect(status).toBe('error');
    expect(received()).toHaveLength(2);
    const job = await show(h, id);
    expect(job.debug.stderr).toBe(
      `Sending the result to the webhook ${hook} failed: The webhook answered HTTP 503 to batch 2 of 3.`,
    );
    expect(JSON.stringify(job.debug)).not.toMatch(/internal detail|secret-path/);
    // A failed job keeps no result.
    expect((await h.call('GET', `/v3/job/result/${id}?format=json`)).status).toBe(404);
  });

  it('fails the job when a saved webhook cannot be reached or its name does not resolve when it is sent', async () => {
    await listener.close();
    await insertResult(h.deps.storage.db, h.admin.accountId, 'gone', `${hook}/in`, 0);
    await insertResult(h.deps.storage.db, h.admin.accountId, 'typo', 'https://no-such-host.invalid/in', 0);
    const query = 'SELECT 1 AS one';
    const gone = await run(h, 'web', query, { json: { query, result: 'gone' } });
    expect(gone.status).toBe('error');
    expect((await show(h, gone.id)).debug.stderr).toBe(
      `Sending the result to the result connection "gone" (${hook}) failed: The webhook could not be reached (batch 1 of 1).`,
    );
    const typo = await run(h, 'web', query, { json: { query, result: 'typo' } });
    expect(typo.status).toBe('error');
    expect((await show(h, typo.id)).debug.stderr).toMatch(
      /^Sending the result to the result connection "typo" \(https:\/\/no-such-host\.invalid\) failed: .*could not be resolved/,
    );
  });

  it('refuses at issue, queuing nothing, a webhook the address policy refuses', async () => {
    h.deps.config.outbound = STRICT_OUTBOUND;
    await insertResult(h.deps.storage.db, h.admin.accountId, 'internal', 'https://10.1.2.3/in', 0);
    const cases: [string, RegExp][] = [
      [`${hook}/in`, /^"result": the webhook http:\/\/127\.0\.0\.1:\d+: Webhooks must use HTTPS\.$/],
      ['https://127.0.0.1/in', /"127\.0\.0\.1" is a loopback or private address/],
      ['https://169.254.169.254/latest', /link-local or reserved address/],
      ['internal', /^"result": the result connection "internal" \(https:\/\/10\.1\.2\.3\): .*private address/],
    ];
    for (const [result, message] of cases) {
      const res = await h.call('POST', '/v3/job/issue/presto/web', { form: { query: ALL, result } });
      expect(res.status, result).toBe(400);
      expect((await errorOf(res)).message, result).toMatch(message);
    }
    const schedule = await h.call('POST', '/v3/schedule/create/nightly', {
      form: { database: 'web', cron: '0 3 * * *', query: ALL, result: 'https://[::1]/in' },
    });
    expect(schedule.status).toBe(400);
    expect((await errorOf(schedule)).message).toMatch(/loopback or private address/);
    expect(await jobCount()).toBe(0);
    expect((await h.call('GET', '/v3/schedule/list')).ok).toBe(true);
    expect(JSON.stringify(await (await h.call('GET', '/v3/schedule/list')).json())).not.toContain('nightly');
    expect(received()).toHaveLength(0);
  });
});
