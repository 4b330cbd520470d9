import { jobStatusObject } from '@svc/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { errorOf, issue, run, show, tableWithRows } from './testing/jobs';

const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

let h: Harness;
afterEach(() => h.close());

async function harness(jobs: { concurrency?: number; queryTimeLimitSeconds?: number }) {
  h = await createHarness({}, { app: { jobs } });
  await tableWithRows(h, 'web', 'pageviews', [{ time: 1700000000, path: '/' }]);
  return h;
}

describe('time limit', () => {
  it('stops a query that runs past the limit and ends it in error saying so', async () => {
    await harness({ queryTimeLimitSeconds: 1 });
    const { id, status } = await run(h, 'web', FOREVER);
    expect(status).toBe('error');
    const job = await show(h, id);
    expect(job.debug.stderr).toBe('Stopped: time limit of 1 s exceeded.');
    expect(job.hive_result_schema).toBeNull();
    // The stopped query's process is gone; the next query gets a fresh one.
    expect((await run(h, 'web', 'SELECT count(*) FROM pageviews')).status).toBe('success');
  });
});

describe('queue', () => {
  it('keeps jobs queued while no slot is free: empty start time, no result yet, killable', async () => {
    await harness({ concurrency: 0 });
    const id = await issue(h, 'web', 'SELECT 1');
    const status = jobStatusObject.parse(await (await h.call('GET', `/v3/job/status/${id}`)).json());
    expect(status).toMatchObject({ status: 'queued', start_at: '', end_at: '', duration: null, num_records: null });
    const result = await h.call('GET', `/v3/job/result/${id}?format=msgpack`);
    expect(result.status).toBe(404);
    expect((await errorOf(result)).message).toBe(
      `Job ${id} is queued: its result can be read once its status is success.`,
    );
    const kill = await h.call('POST', `/v3/job/kill/${id}`);
    expect(await kill.json()).toEqual({ job_id: id, former_status: 'queued' });
    expect(await h.app.services.jobs.whenSettled(Number(id))).toBe('killed');
  });

  it('starts the highest priority first, then the oldest', async () => {
    await harness({ concurrency: 0 });
    const ids: Record<string, string> = {};
    for (const [name, priority] of [
      ['normal', 0],
      ['urgent', 2],
      ['later', -1],
      ['normal2', 0],
    ] as const) {
      ids[name] = await issue(h, 'web', 'SELECT 1', { json: { query: 'SELECT 1', priority } });
    }
    h = await h.restart({ app: { jobs: { concurrency: 1 } } });
    const order: string[] = [];
    const jobs = h.app.services.jobs;
    await Promise.all(Object.values(ids).map((id) => jobs.whenStarted(Number(id)).then(() => order.push(id))));
    await Promise.all(Object.values(ids).map((id) => jobs.whenSettled(Number(id))));
    expect(order).toEqual([ids.urgent, ids.normal, ids.normal2, ids.later]);
  });

  it('runs no more jobs at once than its concurrency', async () => {
    await harness({ concurrency: 1 });
    const slow = await issue(h, 'web', FOREVER);
    const quick = await issue(h, 'web', 'SELECT 1');
    await h.app.services.jobs.whenStarted(Number(slow));
    expect((await show(h, quick)).status).toBe('queued');
    await h.call('POST', `/v3/job/kill/${slow}`);
    expect(await h.app.services.jobs.whenSettled(Number(quick))).toBe('success');
  });
});

describe('restart', () => {
  it('ends a job left running as error with the reason, and runs the queued ones', async () => {
    await harness({ concurrency: 1 });
    const running = await issue(h, 'web', FOREVER);
    const queued = await issue(h, 'web', 'SELECT path FROM pageviews');
    expect(await h.app.services.jobs.whenStarted(Number(running))).toBe('running');
    expect((await show(h, queued)).status).toBe('queued');

    h = await h.restart();
    expect(await h.app.services.jobs.whenSettled(Number(queued))).toBe('success');
    const interrupted = await show(h, running);
    expect(interrupted.status).toBe('error');
    expect(interrupted.debug.stderr).toMatch(/server restarted while this job was running/);
    expect(interrupted.end_at).not.toBe('');
    const rows = await h.call('GET', `/v3/job/result/${queued}?format=json`);
    expect(await rows.text()).toBe('["/"]\n');
  });
});
