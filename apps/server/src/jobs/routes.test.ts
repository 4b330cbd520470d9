import { jobDetail, jobIssued, jobKilled, jobList, jobStatusObject } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { errorOf, issue, run, show, tableWithRows } from './testing/jobs';

const ROWS = [
  { time: 1700000000, path: '/home', ms: 120 },
  { time: 1700000060, path: '/cart', ms: 340 },
  { time: 1700000120, path: '/home', ms: 80 },
];
const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await tableWithRows(h, 'web', 'pageviews', ROWS);
});
afterEach(() => h.close());

const settled = (id: string) => h.app.services.jobs.whenSettled(Number(id));

describe('POST /v3/job/issue/:type/:db', () => {
  const query = 'SELECT path, count(*) AS n FROM pageviews GROUP BY path ORDER BY path';

  it('accepts the query as JSON, form fields (with the Ruby client’s type), multipart or the query string', async () => {
    const form = new FormData();
    form.set('query', query);
    const answers = [
      await h.call('POST', '/v3/job/issue/presto/web', { json: { query } }),
      await h.call('POST', '/v3/job/issue/presto/web', { form: { query, type: 'presto' } }),
      await h.call('POST', '/v3/job/issue/trino/web', { body: form }),
      await h.call('POST', `/v3/job/issue/presto/web?query=${encodeURIComponent(query)}`),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      const body = jobIssued.parse(await res.json());
      expect(body).toEqual({ job: body.job_id, job_id: body.job_id, database: 'web' });
      expect(await settled(body.job_id)).toBe('success');
      const job = await show(h, body.job_id);
      expect(job.query).toBe(query);
      expect(job.num_records).toBe(2);
    }
  });

  it('keeps priority (numbers or names) and refuses one out of range', async () => {
    const id = await issue(h, 'web', 'SELECT 1', { form: { query: 'SELECT 1', priority: 'HIGH' } });
    expect((await show(h, id)).priority).toBe(1);
    const id2 = await issue(h, 'web', 'SELECT 1', { json: { query: 'SELECT 1', Priority: -2 } });
    expect((await show(h, id2)).priority).toBe(-2);
    const res = await h.call('POST', '/v3/job/issue/presto/web', { json: { query: 'SELECT 1', priority: 5 } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/"priority" as a whole number from -2 to 2/);
  });

  it('answers 409 naming the earlier job when a domain key is reused', async () => {
    const first = await issue(h, 'web', 'SELECT 1', { json: { query: 'SELECT 1', domain_key: 'daily-2024-01-01' } });
    const res = await h.call('POST', '/v3/job/issue/presto/web', {
      json: { query: 'SELECT 2', domain_key: 'daily-2024-01-01' },
    });
    expect(res.status).toBe(409);
    const body = await errorOf(res);
    expect(body.details).toEqual({ conflicts_with: first });
    expect(body.message).toContain(`job ${first}`);
    const byKey = await h.call('GET', '/v3/job/status_by_domain_key/daily-2024-01-01');
    expect(jobStatusObject.parse(await byKey.json()).job_id).toBe(first);
  });

  it('lets every account use its own domain keys', async () => {
    const other = await h.newAccount('Other');
    await tableWithRows(h, 'theirs', 'pageviews', [], other);
    await issue(h, 'web', 'SELECT 1', { json: { query: 'SELECT 1', domain_key: 'k1' } });
    const res = await h.call('POST', '/v3/job/issue/presto/theirs', {
      key: other.masterKey,
      json: { query: 'SELECT 1', domain_key: 'k1' },
    });
    expect(res.status).toBe(200);
  });

  it('refuses other engines with 422 and a way forward', async () => {
    const pig = await h.call('POST', '/v3/job/issue/pig/web', { json: { query: 'SELECT 1' } });
    expect(pig.status).toBe(422);
    expect((await errorOf(pig)).message).toMatch(/use hive, presto or trino/);
  });

  it('refuses a missing query, result output to a scheme not offered, and databases it cannot see', async () => {
    const missing = await h.call('POST', '/v3/job/issue/presto/web', { form: { type: 'presto' } });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toMatch(/Send "query"/);
    const exporting = await h.call('POST', '/v3/job/issue/presto/web', {
      json: { query: 'SELECT 1', result: 'postgresql://u:p@db.example.com/x' },
    });
    expect(exporting.status).toBe(422);
    expect((await h.call('POST', '/v3/job/issue/presto/nowhere', { json: { query: 'SELECT 1' } })).status).toBe(404);
    const other = await h.newAccount('Other');
    const foreign = await h.call('POST', '/v3/job/issue/presto/web', {
      key: other.masterKey,
      json: { query: 'SELECT 1' },
    });
    expect(foreign.status).toBe(404);
  });

  it('refuses SQL that writes, attaches, uses PRAGMA or has several statements, before running anything', async () => {
    const cases: [string, RegExp][] = [
      ["INSERT INTO pageviews (time, path) VALUES (1, 'x')", /may only read data: INSERT/],
      ['DELETE FROM pageviews', /may only read data: DELETE/],
      ['WITH x AS (SELECT 1) UPDATE pageviews SET ms = 0', /may only read data: UPDATE/],
      ["ATTACH DATABASE '/tmp/x.sqlite' AS x", /ATTACH is not allowed/],
      ['PRAGMA writable_schema = 1', /PRAGMA is not allowed/],
      ['SELECT * FROM pragma_database_list', /PRAGMA is not allowed/],
      ['SELECT 1; DROP TABLE pageviews', /exactly one statement/],
      ['CREATE TEMP VIEW v AS SELECT 1', /may only read data: CREATE/],
    ];
    for (const [query, message] of cases) {
      const res = await h.call('POST', '/v3/job/issue/presto/web', { json: { query } });
      expect(res.status, query).toBe(400);
      expect((await errorOf(res)).message).toMatch(message);
    }
    const list = jobList.parse(await (await h.call('GET', '/v3/job/list')).json());
    expect(list.count).toBe(0);
  });

  it("refuses the service's figures table at issue with the same 400 on every backend", async () => {
    const cases: [string, string, string][] = [
      ['presto', 'SELECT * FROM "_svc$tables"', '_svc$tables'],
      ['presto', 'SELECT name FROM web."_svc$tables"', '_svc$tables'],
      ['presto', 'SELECT t.name FROM pageviews p JOIN "_SVC$TABLES" t ON true', '_SVC$TABLES'],
      ['presto', 'WITH x AS (SELECT * FROM _svc$tables) SELECT * FROM x', '_svc$tables'],
      ['hive', 'SELECT * FROM `_svc$tables`', '_svc$tables'],
    ];
    for (const [type, query, name] of cases) {
      const res = await h.call('POST', `/v3/job/issue/${type}/web`, { json: { query } });
      expect(res.status, query).toBe(400);
      expect((await errorOf(res)).message, query).toBe(
        `${name} is a table of the service: queries read only the database's own tables.`,
      );
    }
    const list = jobList.parse(await (await h.call('GET', '/v3/job/list')).json());
    expect(list.count).toBe(0);
  });

  it('queues SQL the engine cannot prepare and ends it in error with the reason', async () => {
    const { id, status } = await run(h, 'web', 'SELECT nope FROM pageviews');
    expect(status).toBe('error');
    const job = await show(h, id);
    // Each engine words it its own way (SQLite, PostgreSQL, DuckDB), naming the column.
    expect(job.debug.stderr).toMatch(/no such column: nope|column "nope" does not exist|column "nope" not found/);
    expect(job.hive_result_schema).toBeNull();
    expect(job.result_size).toBeNull();
  });

  it('refuses a write-only key on every job route with 403', async () => {
    const id = (await run(h, 'web', 'SELECT 1')).id;
    const key = h.admin.writeOnlyKey;
    const calls: [string, string][] = [
      ['POST', '/v3/job/issue/presto/web?query=SELECT+1'],
      ['GET', `/v3/job/status/${id}`],
      ['GET', `/v3/job/show/${id}`],
      ['GET', '/v3/job/list'],
      ['POST', `/v3/job/kill/${id}`],
      ['GET', `/v3/job/result/${id}?format=json`],
    ];
    for (const [method, path] of calls) expect((await h.call(method, path, { key })).status, path).toBe(403);
  });
});

describe('reading jobs', () => {
  it('shows a finished job with its schema, output and figures as the OAS describes', async () => {
    const { id, status } = await run(h, 'web', 'SELECT path, ms FROM web.pageviews ORDER BY time');
    expect(status).toBe('success');
    const job = jobDetail.parse(await show(h, id));
    expect(job).toMatchObject({
      job_id: id,
      type: 'presto',
      status: 'success',
      database: 'web',
      user_name: 'admin',
      priority: 0,
      retry_limit: 0,
      num_records: 3,
      created_at: '2026-11-22 09:00:00 UTC',
      start_at: '2026-11-22 09:00:00 UTC',
      end_at: '2026-11-22 09:00:00 UTC',
      duration: 0,
    });
    expect(JSON.parse(job.hive_result_schema as string)).toEqual([
      ['path', 'varchar'],
      ['ms', 'bigint'],
    ]);
    expect(job.debug.cmdout).toMatch(/^started at .*\n3 rows/);
    expect(job.debug.stderr).toBeNull();
    const gz = await h.call('GET', `/v3/job/result/${id}?format=msgpack.gz`);
    expect(job.result_size).toBe((await gz.arrayBuffer()).byteLength);
  });

  it('answers the status in exactly the OAS JobStatus shape', async () => {
    const { id } = await run(h, 'web', 'SELECT 1');
    const res = await h.call('GET', `/v3/job/status/${id}`);
    const body = jobStatusObject.parse(await res.json());
    expect(body).toMatchObject({ job_id: id, status: 'success', num_records: 1 });
  });

  it('lists jobs newest first, with from/to paging and a status filter', async () => {
    const ok = [await run(h, 'web', 'SELECT 1'), await run(h, 'web', 'SELECT 2'), await run(h, 'web', 'SELECT 3')];
    const failed = await run(h, 'web', 'SELECT missing()');
    const all = jobList.parse(await (await h.call('GET', '/v3/job/list')).json());
    expect(all.jobs.map((j) => j.job_id)).toEqual([failed.id, ...ok.map((j) => j.id).reverse()]);
    expect(all).toMatchObject({ count: 4, from: null, to: null });
    const page = jobList.parse(await (await h.call('GET', '/v3/job/list?from=1&to=2')).json());
    expect(page.jobs.map((j) => j.job_id)).toEqual([ok[2]?.id, ok[1]?.id]);
    expect(page).toMatchObject({ from: 1, to: 2, count: 4 });
    const errors = jobList.parse(await (await h.call('GET', '/v3/job/list?status=error')).json());
    expect(errors.jobs.map((j) => j.job_id)).toEqual([failed.id]);
    expect(errors.count).toBe(1);
    const bad = await h.call('GET', '/v3/job/list?status=finished');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/queued, running, success, error, killed/);
  });

  it("answers another account's job exactly like a missing one", async () => {
    const { id } = await run(h, 'web', 'SELECT 1');
    const other = await h.newAccount('Other');
    for (const [method, path] of [
      ['GET', `/v3/job/status/${id}`],
      ['GET', `/v3/job/show/${id}`],
      ['POST', `/v3/job/kill/${id}`],
      ['GET', `/v3/job/result/${id}?format=json`],
    ] as const) {
      const theirs = await h.call(method, path, { key: other.masterKey });
      const missing = await h.call(method, path.replace(`/${id}`, '/99999'));
      expect(theirs.status, path).toBe(404);
      expect(await theirs.json()).toEqual(await missing.json());
    }
    const list = jobList.parse(await (await h.call('GET', '/v3/job/list', { key: other.masterKey })).json());
    expect(list.count).toBe(0);
  });
});

describe('POST /v3/job/kill/:id', () => {
  it('kills a running query at once and says it was running', async () => {
    const id = await issue(h, 'web', FOREVER);
    expect(await h.app.services.jobs.whenStarted(Number(id))).toBe('running');
    const res = await h.call('POST', `/v3/job/kill/${id}`);
    expect(jobKilled.parse(await res.json())).toEqual({ job_id: id, former_status: 'running' });
    expect(await settled(id)).toBe('killed');
    const job = await show(h, id);
    expect(job.debug.stderr).toMatch(/Killed/);
    expect(job.end_at).not.toBe('');
    // The pool goes on with a fresh process.
    expect((await run(h, 'web', 'SELECT 1')).status).toBe('success');
  });

  it('leaves a finished job as it is and reports its status', async () => {
    const { id } = await run(h, 'web', 'SELECT 1');
    const res = await h.call('POST', `/v3/job/kill/${id}`);
    expect(await res.json()).toEqual({ job_id: id, former_status: 'success' });
    expect((await show(h, id)).status).toBe('success');
  });
});
