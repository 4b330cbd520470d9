import { jobList } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { errorOf, run, show, tableWithRows } from './testing/jobs';

/** `result` / `result_url` on job issue: `td query -r`, td-client-ruby's and td-client-python's `result_url`. */

const ROWS = [
  { time: 1700000000, path: '/home', ms: 120 },
  { time: 1700000060, path: '/cart', ms: 340 },
  { time: 1700000120, path: '/home', ms: 80 },
];
const COUNTS = 'SELECT path, count(*) AS n FROM pageviews GROUP BY path ORDER BY path';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await tableWithRows(h, 'web', 'pageviews', ROWS);
});
afterEach(() => h.close());

const tail = async (db: string, table: string) => {
  const res = await h.call('GET', `/v3/table/tail/${db}/${table}?count=100`);
  expect(res.status).toBe(200);
  return (await res.text())
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .map(({ time: _, ...rest }) => rest)
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
};

describe('result output on job issue', () => {
  it('writes the result to a table in every form the clients send, and shows where it went', async () => {
    // td CLI `-r` and td-client-ruby send `result` as a form field; td-client-python sends it multipart.
    const multipart = new FormData();
    multipart.set('query', COUNTS);
    multipart.set('result', 'td://@/web/by_path');
    const sent = [
      { form: { query: COUNTS, type: 'presto', result: 'td://KEY123@/web/by_path' } },
      { body: multipart },
      { json: { query: COUNTS, result_url: 'td://@/web/by_path?mode=append' } },
    ];
    for (const opts of sent) {
      const { id, status } = await run(h, 'web', COUNTS, opts);
      expect(status).toBe('success');
      const job = await show(h, id);
      expect(job.result).toMatch(/^td:\/\/(\*\*\*)?@\/web\/by_path/);
      expect(job.result).not.toContain('KEY123');
      expect(job.debug.cmdout).toContain('2 rows appended to web.by_path');
    }
    expect(await tail('web', 'by_path')).toEqual([
      ...Array(3).fill({ n: 1, path: '/cart' }),
      ...Array(3).fill({ n: 2, path: '/home' }),
    ]);
  });

  it('replaces the table’s rows with mode=replace, and writes through a saved result connection', async () => {
    await run(h, 'web', COUNTS, { json: { query: COUNTS, result: 'td://@/web/latest' } });
    await run(h, 'web', COUNTS, { json: { query: COUNTS, result: 'td://@/web/latest' } });
    expect(await tail('web', 'latest')).toHaveLength(4);
    expect(
      (await h.call('POST', '/v3/result/create/latest_out', { form: { url: 'td://@/web/latest?mode=replace' } }))
        .status,
    ).toBe(200);
    const query = "SELECT path, max(ms) AS slowest FROM pageviews WHERE path = '/home' GROUP BY path";
    const { id, status } = await run(h, 'web', query, { json: { query, result: 'latest_out' } });
    expect(status).toBe('success');
    expect((await show(h, id)).debug.cmdout).toContain('web.latest replaced by the 1 rows of the result');
    expect(await tail('web', 'latest')).toEqual([{ path: '/home', slowest: 120 }]);
    // An empty result empties the table.
    const none = "SELECT path FROM pageviews WHERE path = '/nowhere'";
    expect((await run(h, 'web', none, { json: { query: none, result: 'latest_out' } })).status).toBe('success');
    expect(await tail('web', 'latest')).toEqual([]);
  });

  it('refuses a target that does not exist or cannot be written with a 4xx, queuing nothing', async () => {
    await h.call('POST', '/v3/result/create/bucket', { form: { url: 's3://bucket/out' } });
    const cases: [string, number, RegExp][] = [
      ['td://@/no_such_db/t', 400, /database "no_such_db" does not exist in this account/],
      ['td://@/web', 400, /td:\/\/@\/<database>\/<table>/],
      ['td://@/web/Bad-Name!', 400, /cannot be created/],
      ['no_such_connection', 400, /no result connection named "no_such_connection"/],
      ['td://@/web/t?mode=truncate', 422, /mode=append \(the default\) or mode=replace/],
      ['s3://bucket/key', 422, /s3:\/\/ is not offered/],
      ['bucket', 422, /writes neither a table nor a webhook/],
    ];
    const answers = await Promise.all(
      cases.map(async ([result]) => {
        const res = await h.call('POST', '/v3/job/issue/presto/web', { form: { query: COUNTS, result } });
        return { result, status: res.status, message: (await errorOf(res)).message };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(cases.map(([, code]) => code));
    for (const [i, a] of answers.entries()) expect(a.message, a.result).toMatch(cases[i]?.[2] as RegExp);
    const { count } = jobList.parse(await (await h.call('GET', '/v3/job/list')).json());
    expect(count, 'nothing queued').toBe(0);
  });

  it('fails the job with a message when the rows cannot be written, leaving the table as it was', async () => {
    await tableWithRows(h, 'web', 'kept', [{ time: 1700000000, path: '/x' }]);
    const query = "SELECT 'not a time' AS time, path FROM pageviews";
    const { id, status } = await run(h, 'web', query, { json: { query, result: 'td://@/web/kept?mode=replace' } });
    expect(status).toBe('error');
    expect((await show(h, id)).debug.stderr).toMatch(/^Writing the result to web\.kept failed: .*time/);
    expect(await tail('web', 'kept')).toEqual([{ path: '/x' }]);
    // The job's own rows are not kept for a failed job.
    expect((await h.call('GET', `/v3/job/result/${id}?format=json`)).status).toBe(404);
  });
});
