import { jobList } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { run, tableWithRows } from './testing/jobs';

/** The console's jobs page filters by type and database as well as status; the server does the filtering. */

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await tableWithRows(h, 'web', 'pageviews', [{ time: 1700000000, path: '/home' }]);
  await tableWithRows(h, 'shop', 'orders', [{ time: 1700000000, total: 10 }]);
});
afterEach(() => h.close());

const list = async (query: string) => jobList.parse(await (await h.call('GET', `/v3/job/list${query}`)).json());

describe('GET /v3/job/list filters', () => {
  it('keeps only the jobs of one database, newest first, with the count of that selection', async () => {
    const web1 = await run(h, 'web', 'SELECT 1');
    await run(h, 'shop', 'SELECT 2');
    const web2 = await run(h, 'web', 'SELECT 3');
    const web = await list('?database=web');
    expect(web.jobs.map((j) => j.job_id)).toEqual([web2.id, web1.id]);
    expect(web.count).toBe(2);
    expect((await list('?database=nothing_here')).count).toBe(0);
  });

  it('combines type, database and status', async () => {
    const ok = await run(h, 'web', 'SELECT 1');
    const failed = await run(h, 'web', 'SELECT nope FROM pageviews');
    await run(h, 'shop', 'SELECT nope FROM orders');
    expect((await list('?type=presto&database=web&status=success')).jobs.map((j) => j.job_id)).toEqual([ok.id]);
    expect((await list('?type=PRESTO&database=web&status=error')).jobs.map((j) => j.job_id)).toEqual([failed.id]);
    expect((await list('?type=bulk_import')).count).toBe(0);
    expect((await list('?type=presto')).count).toBe(3);
  });

  it('keeps only the jobs of one user, by name', async () => {
    const form = { email: 'analyst@jobs.test', password: 'a long password 1' };
    expect((await h.call('POST', '/v3/user/add/analyst', { form })).status).toBe(200);
    const key = ((await (await h.call('POST', '/v3/user/apikey/add/analyst')).json()) as { apikey: string }).apikey;
    const mine = await run(h, 'web', 'SELECT 1');
    const theirs = await run(h, 'web', 'SELECT 2', { key, json: { query: 'SELECT 2' } });
    const byAnalyst = await list('?user=analyst');
    expect(byAnalyst.jobs.map((j) => [j.job_id, j.user_name])).toEqual([[theirs.id, 'analyst']]);
    expect(byAnalyst.count).toBe(1);
    const admin = (await list(`?from=0&to=9&database=web`)).jobs.find((j) => j.job_id === mine.id)?.user_name;
    expect((await list(`?user=${encodeURIComponent(admin ?? '')}`)).jobs.map((j) => j.job_id)).toEqual([mine.id]);
    expect((await list('?user=nobody_of_that_name')).count).toBe(0);
  });

  it("never shows another account's jobs through a filter", async () => {
    await run(h, 'web', 'SELECT 1');
    const other = await h.newAccount('Other');
    const res = await h.call('GET', '/v3/job/list?database=web&type=presto', { key: other.masterKey });
    expect(jobList.parse(await res.json()).count).toBe(0);
  });
});
