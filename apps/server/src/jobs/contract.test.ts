import { jobDetail } from '@svc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { responseErrors, schemaErrors } from '../testing/oasContract';
import { run, tableWithRows } from './testing/jobs';

let h: Harness;
let id: string;
beforeAll(async () => {
  h = await createHarness();
  await tableWithRows(h, 'web', 'pageviews', [{ time: 1700000000, path: '/' }]);
  id = (await run(h, 'web', 'SELECT path FROM pageviews')).id;
});
afterAll(() => h.close());

const body = async (method: string, path: string) => (await h.call(method, path)).json();

describe('job responses against td-api-v3.openapi.yml', () => {
  it('issue', async () => {
    const res = await h.call('POST', '/v3/job/issue/presto/web', { json: { query: 'SELECT 1' } });
    expect(responseErrors('post', '/job/issue/{job_type}/{database_name}', await res.json())).toEqual([]);
  });
  it('status', async () => {
    expect(responseErrors('get', '/job/status/{job_id}', await body('GET', `/v3/job/status/${id}`))).toEqual([]);
  });
  it('show', async () => {
    const job = await body('GET', `/v3/job/show/${id}`);
    // The document's show schema is allOf [Job, {debug} with additionalProperties: false], which no object
    // can satisfy (every Job field is "additional" to the second part); so: Job, plus the debug part.
    expect(schemaErrors('Job', job)).toEqual([]);
    expect(jobDetail.parse(job).debug).toEqual({ cmdout: expect.stringMatching(/^started at/), stderr: null });
  });
  it('list', async () => {
    expect(responseErrors('get', '/job/list', await body('GET', '/v3/job/list'))).toEqual([]);
  });
  it('kill', async () => {
    expect(responseErrors('post', '/job/kill/{job_id}', await body('POST', `/v3/job/kill/${id}`))).toEqual([]);
  });

  it('lists every job route in /openapi.json', async () => {
    const doc = (await (await h.call('GET', '/openapi.json', { key: null })).json()) as { paths: object };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/v3/job/'))).toEqual([
      // Not offered: answers 422 naming GET /v3/job/result (system/notOffered.ts).
      '/v3/job/result_export/{job_id}',
      '/v3/job/issue/{type}/{db}',
      '/v3/job/status/{job_id}',
      '/v3/job/status_by_domain_key/{domain_key}',
      '/v3/job/show/{job_id}',
      '/v3/job/list',
      '/v3/job/kill/{job_id}',
      '/v3/job/result/{job_id}',
    ]);
  });
});
