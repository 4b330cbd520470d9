import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { errorOf, show, tableWithRows } from './testing/jobs';

const ROWS = [
  { time: 1700000000, path: '/home', tags: ['a', 'b'], payload: '{"user":{"id":7}}' },
  { time: 1700000060, path: '/cart', tags: ['b'], payload: '{"user":{"id":8}}' },
];

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await tableWithRows(h, 'web', 'pageviews', ROWS);
});
afterEach(() => h.close());

const resultLines = async (id: string) =>
  (await (await h.call('GET', `/v3/job/result/${id}?format=json`)).text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

/** Issues as the client would, waits for the end, and returns the job id. */
async function hiveJob(opts: Parameters<Harness['call']>[2]): Promise<string> {
  const res = await h.call('POST', '/v3/job/issue/hive/web', opts);
  const body = (await res.json()) as { job_id: string; message?: string };
  expect(res.status, body.message).toBe(200);
  expect(await h.app.services.jobs.whenSettled(Number(body.job_id))).toBe('success');
  return body.job_id;
}

describe('hive jobs, the clients’ default type', () => {
  const query =
    'SELECT `path`, get_json_object(payload, \'$.user.id\') AS uid, from_unixtime(time) AS at FROM pageviews WHERE path <> "/none" ORDER BY at';

  it('run a td query-shaped request (form, no type field) and return rows', async () => {
    const id = await hiveJob({ form: { query, priority: '0', retry_limit: '0' } });
    expect(await resultLines(id)).toEqual([
      ['/home', '7', '2023-11-14 22:13:20'],
      ['/cart', '8', '2023-11-14 22:14:20'],
    ]);
    const job = await show(h, id);
    expect(job).toMatchObject({ type: 'hive', status: 'success', query, num_records: 2 });
    expect(JSON.parse(job.hive_result_schema as string).map(([name]: string[]) => name)).toEqual(['path', 'uid', 'at']);
  });

  it('run with type=hive in the body (td-client-ruby) and as multipart (td-client-python)', async () => {
    const lateral =
      'SELECT tag, count(*) AS n FROM pageviews LATERAL VIEW explode(tags) t AS tag GROUP BY tag ORDER BY tag';
    const ruby = await hiveJob({ form: { query: lateral, type: 'hive' } });
    const form = new FormData();
    form.set('query', lateral);
    const python = await hiveJob({ body: form });
    for (const id of [ruby, python]) {
      expect(await resultLines(id)).toEqual([
        ['a', 1],
        ['b', 2],
      ]);
    }
  });

  it('answer 400 naming a construct with no translation, before anything runs', async () => {
    const res = await h.call('POST', '/v3/job/issue/hive/web', {
      form: { query: 'INSERT OVERWRITE TABLE copy SELECT * FROM pageviews' },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^HiveQL INSERT OVERWRITE \/ INSERT INTO is not supported/);
    const lateral = await h.call('POST', '/v3/job/issue/hive/web', {
      form: { query: 'SELECT * FROM pageviews LATERAL VIEW OUTER explode(tags) t AS tag' },
    });
    expect(lateral.status).toBe(400);
    expect((await errorOf(lateral)).message).toContain('LATERAL VIEW OUTER');
    const list = (await (await h.call('GET', '/v3/job/list')).json()) as { count: number };
    expect(list.count).toBe(0);
  });

  it('gather values with collect_list and collect_set, as JSON array text, on both backends', async () => {
    const query = `SELECT size(collect_list(path)) AS n, size(collect_set(substr(path, 1, 1))) AS d,
      collect_set(substr(path, 1, 1)) AS s, collect_list(CASE WHEN path = '/home' THEN path END) AS l FROM pageviews`;
    const id = await hiveJob({ form: { query } });
    expect(await resultLines(id)).toEqual([[2, 1, '["/"]', '["/home"]']]);
    expect(JSON.parse((await show(h, id)).hive_result_schema as string)).toEqual([
      ['n', 'bigint'],
      ['d', 'bigint'],
      ['s', 'varchar'],
      ['l', 'varchar'],
    ]);
  });

  it('leave presto jobs untouched by the HiveQL pass', async () => {
    const res = await h.call('POST', '/v3/job/issue/presto/web', {
      json: { query: 'SELECT "path" FROM pageviews LIMIT 1' },
    });
    const { job_id } = (await res.json()) as { job_id: string };
    expect(await h.app.services.jobs.whenSettled(Number(job_id))).toBe('success');
    expect((await resultLines(job_id))[0]).toEqual(['/home']);
  });
});
