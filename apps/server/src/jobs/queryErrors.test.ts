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
