import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';

describe('a trailing slash on /v3 routes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('reaches the route without it, as td-client-node listJobs sends /v3/job/list/', async () => {
    const res = await h.call('GET', '/v3/job/list/?from=0&to=9');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ jobs: [], count: 0 });
  });

  it('works for routes with parameters and for writes', async () => {
    expect((await h.call('POST', '/v3/database/create/slashdb/')).status).toBe(200);
    const show = await h.call('GET', '/v3/database/show/slashdb/');
    expect(show.status).toBe(200);
    expect(await show.json()).toMatchObject({ name: 'slashdb' });
  });

  it('still needs the key, and an unknown route stays a 404 body', async () => {
    expect((await h.call('GET', '/v3/job/list/', { key: null })).status).toBe(401);
    const res = await h.call('GET', '/v3/no_such_route/');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status_code: 404 });
  });
});
