import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeDuckFiles, openDuckFileCount } from '../../../data';
import { createHarness, type Harness } from '../../../testing/harness';
import { errorOf, issue, run, show, tableWithRows } from '../../testing/jobs';

/**
 * Query jobs on the embedded DuckDB plane through the real app: the rows are written and the jobs run in the
 * worker that owns the database's file (decision 0031), the request loop opens no DuckDB file, a kill
 * interrupts the query there, and the sandbox's refusals answer 400 when the job is issued.
 */

const FOREVER = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({}, { backend: 'sqlite' });
  await tableWithRows(h, 'shop', 'events', [
    { time: 1700000000, action: 'buy', amount: 7 },
    { time: 1700000060, action: 'buy', amount: 3 },
    { time: 1700086400, action: 'view', amount: 2 },
  ]);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await closeDuckFiles();
});

const lines = async (id: string) =>
  (await (await h.call('GET', `/v3/job/result/${id}?format=json`)).text()).trim().split('\n');

it('runs a query job on the database’s DuckDB file in its owner worker, with the Presto functions', async () => {
  const { id, status } = await run(
    h,
    'shop',
    "SELECT TD_TIME_FORMAT(time, 'yyyy-MM-dd', 'UTC') AS day, action, SUM(amount) AS total, COUNT(*) AS n FROM events GROUP BY 1, 2 ORDER BY 1, 2",
  );
  expect(status, (await show(h, id)).debug.stderr ?? '').toBe('success');
  expect(await lines(id)).toEqual(['["2023-11-14","buy",10,2]', '["2023-11-15","view",2,1]']);
  expect(JSON.parse((await show(h, id)).hive_result_schema ?? '[]')).toEqual([
    ['day', 'varchar'],
    ['action', 'varchar'],
    ['total', 'bigint'],
    ['n', 'bigint'],
  ]);
  expect(openDuckFileCount()).toBe(0);
});

it('types what date_trunc returns as timestamp, as on SQLite', async () => {
  const { id, status } = await run(
    h,
    'shop',
    "SELECT date_trunc('day', from_unixtime(time)) AS day, COUNT(*) AS n FROM events GROUP BY 1 ORDER BY 1",
  );
  expect(status, (await show(h, id)).debug.stderr ?? '').toBe('success');
  expect(await lines(id)).toEqual(['["2023-11-14 00:00:00.000",2]', '["2023-11-15 00:00:00.000",1]']);
  expect(JSON.parse((await show(h, id)).hive_result_schema ?? '[]')).toEqual([
    ['day', 'timestamp'],
    ['n', 'bigint'],
  ]);
});

it('kills a running query by interrupting it in the owner, and the next job runs', async () => {
  const id = await issue(h, 'shop', FOREVER);
  expect(await h.app.services.jobs.whenStarted(Number(id))).toBe('running');
  expect((await h.call('POST', `/v3/job/kill/${id}`)).status).toBe(200);
  expect(await h.app.services.jobs.whenSettled(Number(id))).toBe('killed');
  expect((await show(h, id)).debug.stderr).toMatch(/Killed/);
  const next = await run(h, 'shop', 'SELECT count(*) AS n FROM events');
  expect(next.status).toBe('success');
  expect(await lines(next.id)).toEqual(['[3]']);
});

it('refuses file readers and the plane’s helper tables when the job is issued, naming them', async () => {
  const reader = await h.call('POST', '/v3/job/issue/presto/shop', {
    json: { query: "SELECT * FROM read_csv('/etc/passwd')" },
  });
  expect(reader.status).toBe(400);
  expect((await errorOf(reader)).message).toMatch(/read_csv/);
  const helper = await h.call('POST', '/v3/job/issue/presto/shop', { json: { query: 'SELECT * FROM "_svc$tables"' } });
  expect(helper.status).toBe(400);
  expect(openDuckFileCount()).toBe(0);
});

it('queues a function the engine does not have, as the other engines do, and ends its job with the reason', async () => {
  const { id, status } = await run(h, 'shop', 'SELECT no_such_function(amount) FROM events');
  expect(status).toBe('error');
  expect((await show(h, id)).debug.stderr).toMatch(/The function no_such_function is not supported/);
});
