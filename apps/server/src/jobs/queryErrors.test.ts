import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { run, show, tableWithRows } from './testing/jobs';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await tableWithRows(h, 'demo_shop', 'orders', [{ time: 1700000000, total: 5 }]);
  await tableWithRows(h, 'shop', 'events', [{ time: 1700000000, name: 'view' }]);
});
afterEach(() => h.close());

describe('a query on a table that is not there', () => {
  it('names the database it looked in, and the databases that have the table', async () => {
    const { id, status } = await run(h, 'demo_shop', 'SELECT count(*) FROM events');
    expect(status).toBe('error');
    // Each engine words the first part its own way (SQLite, PostgreSQL, DuckDB).
    expect((await show(h, id)).debug.stderr).toMatch(
      /(no such table: events|relation "events" does not exist|Table with name events does not exist) in database demo_shop \(a table "events" is in shop\)/,
    );
    const alone = await run(h, 'shop', 'SELECT count(*) FROM nowhere_at_all');
    expect((await show(h, alone.id)).debug.stderr).toMatch(
      /(no such table: nowhere_at_all|relation "nowhere_at_all" does not exist|Table with name nowhere_at_all does not exist) in database shop(?:!|$)/m,
    );
  });
});

describe('a bigint sum past the 64-bit range', () => {
  it('ends the job in error saying so and what to do, in the same words on every backend', async () => {
    // 2^62, exact as a double: three of them pass 2^63 - 1, five 2^64.
    await tableWithRows(
      h,
      'shop',
      'totals',
      [1, 2, 3, 4, 5].map((i) => ({ time: 1700000000 + i, n: 2 ** 62 })),
    );
    for (const query of [
      'SELECT sum(n) AS s FROM totals WHERE time <= 1700000003',
      'SELECT sum(n) AS s FROM totals',
      'SELECT time % 2 AS k, sum(n) AS s FROM totals GROUP BY time % 2',
    ]) {
      const { id, status } = await run(h, 'shop', query);
      expect(status, query).toBe('error');
      const job = await show(h, id);
      expect(job.debug.stderr, query).toBe(
        'bigint out of range: a value passed the 64-bit integer range (-2^63 to 2^63 - 1); CAST(x AS double) computes it as a double.',
      );
      expect(job.hive_result_schema).toBeNull();
    }
    // Within the range the sum stays an exact bigint; as a double it passes the range.
    const within = await run(h, 'shop', 'SELECT sum(n) - 1 AS s FROM totals WHERE time = 1700000001');
    expect(within.status).toBe('success');
    expect(JSON.parse((await show(h, within.id)).hive_result_schema ?? '')).toEqual([['s', 'bigint']]);
    const doubled = await run(h, 'shop', 'SELECT sum(CAST(n AS double)) AS s FROM totals');
    expect(doubled.status).toBe('success');
    const text = await (await h.call('GET', `/v3/job/result/${doubled.id}?format=csv`)).text();
    expect(Number(text.trim())).toBe(5 * 2 ** 62);
  });
});
