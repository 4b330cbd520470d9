import { scheduleHistory } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableWithRows } from '../jobs/testing/jobs';
import { createHarness, type Harness } from '../testing/harness';

/**
 * The scheduler with the injected clock: the test sets the time and ticks (no timer, no sleeps). Each slot
 * fires once, also when two nodes tick together; runs are jobs with the schedule's name and slot.
 */

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await tableWithRows(h, 'web', 'pageviews', [
    { time: 1_700_000_000, path: '/a' },
    { time: 1_700_000_100, path: '/b' },
  ]);
}, 30_000);
afterEach(async () => {
  await h.close();
});

const at = (iso: string) => h.clock.set(Date.parse(iso));
const tick = (on: Harness = h) => on.app.services.schedules.tick();
const create = async (name: string, form: Record<string, string>) => {
  const res = await h.call('POST', `/v3/schedule/create/${name}`, { form: { database: 'web', ...form } });
  expect(res.status, await res.clone().text()).toBe(200);
};
const history = async (name: string) =>
  scheduleHistory.parse(await (await h.call('GET', `/v3/schedule/history/${name}?from=0&to=100`)).json()).history;
const slots = async (name: string) => (await history(name)).map((j) => j.scheduled_at).reverse();
const settleAll = async (name: string) => {
  for (const job of await history(name)) await h.app.services.jobs.whenSettled(Number(job.job_id));
};

describe('the scheduler', () => {
  it('fires each slot once, at the slot, with the schedule’s name and slot on the job', async () => {
    await create('hourly', { cron: '@hourly', query: 'SELECT count(*) AS n FROM pageviews', type: 'presto' });
    // Created at 09:00:00: that slot is not after the creation, so it does not fire.
    expect(await tick()).toBe(0);
    at('2026-11-22T09:59:59Z');
    expect(await tick()).toBe(0);
    at('2026-11-22T10:00:00Z');
    expect(await tick()).toBe(1);
    expect(await tick()).toBe(0);
    at('2026-11-22T10:45:00Z');
    expect(await tick()).toBe(0);
    at('2026-11-22T11:00:30Z');
    expect(await tick()).toBe(1);
    expect(await slots('hourly')).toEqual(['2026-11-22 10:00:00 UTC', '2026-11-22 11:00:00 UTC']);
    await settleAll('hourly');
    const [latest] = await history('hourly');
    expect(latest).toMatchObject({ status: 'success', type: 'presto', schedule_name: 'hourly', num_records: 1 });
    const listed = (await (await h.call('GET', '/v3/job/list')).json()) as { jobs: Record<string, unknown>[] };
    expect(listed.jobs.map((j) => j.schedule_name)).toEqual(['hourly', 'hourly']);
  });

  it('waits the delay after each slot, reads the cron in the time zone, and runs as of the slot', async () => {
    await create('tokyo_morning', {
      cron: '0 9 * * *',
      timezone: 'Asia/Tokyo',
      delay: '900',
      query: 'SELECT TD_SCHEDULED_TIME() AS t',
    });
    // 09:00 in Tokyo is 00:00 UTC; the run starts 15 minutes later.
    at('2026-11-23T00:14:59Z');
    expect(await tick()).toBe(0);
    at('2026-11-23T00:15:00Z');
    expect(await tick()).toBe(1);
    await settleAll('tokyo_morning');
    const [job] = await history('tokyo_morning');
    expect(job?.scheduled_at).toBe('2026-11-23 00:00:00 UTC');
    const rows = await (await h.call('GET', `/v3/job/result/${job?.job_id}?format=json`)).text();
    expect(rows).toBe(`[${Date.UTC(2026, 10, 23) / 1000}]\n`);
  });

  it('fires each slot once when two nodes tick together, and a restart does not fire it again', async () => {
    await create('every_minute', { cron: '* * * * *', query: 'SELECT 1' });
    const second = await h.secondNode();
    try {
      for (const minute of ['09:01', '09:02', '09:03']) {
        at(`2026-11-22T${minute}:00Z`);
        const counts = await Promise.all([tick(), tick(second)]);
        expect(
          counts.reduce((a, b) => a + b, 0),
          minute,
        ).toBe(1);
      }
    } finally {
      await second.close();
    }
    h = await h.restart();
    expect(await tick()).toBe(0);
    expect(await slots('every_minute')).toEqual([
      '2026-11-22 09:01:00 UTC',
      '2026-11-22 09:02:00 UTC',
      '2026-11-22 09:03:00 UTC',
    ]);
    await settleAll('every_minute');
  }, 60_000);

  it('after a time without ticks fires only the latest due slot, and a new cron starts from the change', async () => {
    await create('hourly', { cron: '@hourly', query: 'SELECT 1' });
    at('2026-11-22T14:20:00Z');
    expect(await tick()).toBe(1);
    expect(await slots('hourly')).toEqual(['2026-11-22 14:00:00 UTC']);
    // 14:30 passes while the cron changes to half past: it is not made up.
    at('2026-11-22T14:40:00Z');
    await h.call('POST', '/v3/schedule/update/hourly', { form: { cron: '30 * * * *' } });
    expect(await tick()).toBe(0);
    at('2026-11-22T15:30:00Z');
    expect(await tick()).toBe(1);
    expect(await slots('hourly')).toEqual(['2026-11-22 14:00:00 UTC', '2026-11-22 15:30:00 UTC']);
    // Without a cron it never fires; deleted, it never fires.
    await h.call('POST', '/v3/schedule/update/hourly', { form: { cron: '' } });
    at('2026-11-22T16:30:00Z');
    expect(await tick()).toBe(0);
    await h.call('POST', '/v3/schedule/update/hourly', { form: { cron: '@hourly' } });
    await h.call('POST', '/v3/schedule/delete/hourly');
    at('2026-11-22T18:00:00Z');
    expect(await tick()).toBe(0);
    const jobs = (await (await h.call('GET', '/v3/job/list')).json()) as { count: number };
    expect(jobs.count).toBe(2);
  });

  it('retries a failed run up to retry_limit times, for the same slot', async () => {
    await create('flaky', { cron: '@hourly', query: 'SELECT count(*) FROM later_table', retry_limit: '2' });
    at('2026-11-22T10:00:00Z');
    expect(await tick()).toBe(1);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await settleAll('flaky');
      expect((await history('flaky'))[0]?.status).toBe('error');
      expect(await tick()).toBe(attempt < 3 ? 1 : 0);
    }
    expect(await slots('flaky')).toEqual(Array(3).fill('2026-11-22 10:00:00 UTC'));
  }, 60_000);

  it('appends the rows of a successful run to its result table, stamped with the slot', async () => {
    await h.call('POST', '/v3/result/create/counts_out', { form: { url: 'td://@/web/path_counts' } });
    await create('counts', {
      cron: '@daily',
      query: 'SELECT path, count(*) AS n FROM pageviews GROUP BY path ORDER BY path',
      type: 'presto',
      result: 'counts_out',
    });
    at('2026-11-23T00:00:00Z');
    expect(await tick()).toBe(1);
    await settleAll('counts');
    const [job] = await history('counts');
    expect(job).toMatchObject({ status: 'success', result: 'counts_out' });
    const tail = await (await h.call('GET', '/v3/table/tail/web/path_counts?count=10')).text();
    const slot = Date.UTC(2026, 10, 23) / 1000;
    expect(tail.trim().split('\n').sort()).toEqual([
      `{"time":${slot},"path":"/a","n":1}`,
      `{"time":${slot},"path":"/b","n":1}`,
    ]);
    // A result database that is gone by the time the run ends fails the run, saying why.
    expect((await h.call('POST', '/v3/database/create/gone_db')).status).toBe(200);
    const update = await h.call('POST', '/v3/schedule/update/counts', { form: { result: 'td://@/gone_db/counts' } });
    expect(update.status).toBe(200);
    expect((await h.call('POST', '/v3/database/delete/gone_db')).status).toBe(200);
    at('2026-11-24T00:00:00Z');
    expect(await tick()).toBe(1);
    await settleAll('counts');
    const failed = await (await h.call('GET', `/v3/job/show/${(await history('counts'))[0]?.job_id}`)).json();
    expect(failed).toMatchObject({ status: 'error', debug: { stderr: expect.stringContaining('"gone_db"') } });
  });
});
