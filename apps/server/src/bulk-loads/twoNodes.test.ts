import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';

/**
 * Two nodes on one database (issue 16): both check the schedules; each firing is claimed by exactly one
 * (platform/storage/slots.ts), even when both see it come due at the same moment. Nodes share a database
 * only on PostgreSQL; on SQLite (one node per data folder) the one node plays both parts, ticking twice.
 */
let a: Harness;
let b: Harness;
beforeEach(async () => {
  a = await createHarness();
  b = a.deps.storage.backend === 'postgres' ? await a.secondNode() : a;
  await a.call('POST', '/v3/database/create/sales');
  await a.call('POST', '/v3/table/create/sales/orders/log');
});
afterEach(async () => {
  if (b !== a) await b.close();
  await a.close();
});

describe('a bulk load schedule on two nodes', () => {
  it('fires once per due time, whichever node ticks, even both at once', async () => {
    const created = await a.call('POST', '/v3/bulk_loads', {
      json: {
        name: 'hourly',
        database: 'sales',
        table: 'orders',
        cron: '0 * * * *',
        timezone: 'UTC',
        // Loopback, which the tests' address policy refuses: runs fail at once; only their queueing matters.
        config: {
          in: { type: 'postgresql', host: '127.0.0.1', port: 1, user: 'u', password: 'p' },
          out: { mode: 'append' },
        },
      },
    });
    expect(created.status).toBe(200);
    const runs = async () =>
      (await (await a.call('GET', '/v3/bulk_loads/hourly/jobs')).json()) as { job_id: number; status: string }[];
    const runsEnded = async () => {
      // Whichever node runs it tells its own waiters.
      for (const run of await runs()) {
        await Promise.race([a, b].map((node) => node.app.services.jobs.whenSettled(run.job_id)));
      }
    };
    const tick = (node: Harness) => node.app.services.bulkLoads.tick();
    const tickBoth = async () => {
      const [onA, onB] = await Promise.all([tick(a), tick(b)]);
      return onA + onB;
    };
    // The harness clock starts at 09:00 UTC: the next firing is 10:00.
    expect(await tickBoth()).toBe(0);
    a.clock.advance(60 * 60 * 1000);
    expect(await tickBoth()).toBe(1);
    expect(await tickBoth()).toBe(0);
    // A run still in flight would take the next firing's place: let the first one end.
    await runsEnded();
    a.clock.advance(60 * 60 * 1000);
    expect(await tick(b)).toBe(1);
    expect(await tick(a)).toBe(0);
    expect(await runs()).toHaveLength(2);
    await runsEnded();
  });
});
