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

  it("never shows another account's jobs through a filter", async () => {
    await run(h, 'web', 'SELECT 1');
    const other = await h.newAccount('Other');
    const res = await h.call('GET', '/v3/job/list?database=web&type=presto', { key: other.masterKey });
    expect(jobList.parse(await res.json()).count).toBe(0);
  });
});
