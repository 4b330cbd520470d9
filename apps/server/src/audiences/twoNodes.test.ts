import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { createParentSegment, importRows, type Json, ok } from './testing/audiences';

/** Two nodes on one database (issue 16): one scheduled rebuild between them, and the same profiles on both. */
describe('parent segments across two nodes', () => {
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    a = await createHarness();
    b = await a.secondNode();
    await importRows(a, 'shop', 'customers', [
      { customer_id: 1, tier: 'gold', time: 1 },
      { customer_id: 2, tier: 'silver', time: 1 },
    ]);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('fires a scheduled rebuild once when both nodes tick, and serves the profiles one built on the other', async () => {
    a.clock.set(Date.parse('2026-11-24T10:00:00Z'));
    const record = await createParentSegment(a, {
      name: 'Hourly',
      master: { parentDatabaseName: 'shop', parentTableName: 'customers', parentKey: 'customer_id' },
      attributes: [{ name: 'tier', parentColumn: 'tier' }],
      scheduleType: 'hourly',
      scheduleOption: '00:15',
    });
    a.clock.set(Date.parse('2026-11-24T10:15:00Z'));
    const queued = await Promise.all([a.app.services.bulkLoads.tick(), b.app.services.bulkLoads.tick()]);
    expect(queued[0] + queued[1]).toBe(1);
    const shown = await ok(b.call('GET', `/audiences/${record.id}`));
    expect(shown.buildJobId).not.toBe(record.buildJobId);
    const node = queued[0] === 1 ? a : b;
    expect(await node.app.services.jobs.whenSettled(Number(shown.buildJobId))).toBe('success');
    // Ticking again in the same slot queues nothing on either node.
    expect(await b.app.services.bulkLoads.tick()).toBe(0);
    expect(await a.app.services.bulkLoads.tick()).toBe(0);
    const rule: Json = {
      type: 'And',
      conditions: [{ type: 'Value', leftValue: { name: 'tier' }, operator: { type: 'Equal', rightValue: 'gold' } }],
    };
    for (const other of [a, b]) {
      const sample = await ok<{ profiles: { key: string }[]; population: number }>(
        other.call('POST', `/audiences/${record.id}/sample`, { json: { rule } }),
      );
      expect(sample).toEqual({ profiles: [{ key: '1', attributes: { tier: 'gold' } }], population: 1 });
    }
  });
});
