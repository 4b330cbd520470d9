import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { createParentSegment, failure, importRows, type Json, ok } from './testing/audiences';

/** Parent segments with a timed schedule are rebuilt at each slot, driven by the app's schedule tick. */
describe('parent segment schedules', () => {
  let h: Harness;
  const master = { parentDatabaseName: 'shop', parentTableName: 'customers', parentKey: 'customer_id' };
  const tick = () => h.app.services.bulkLoads.tick();
  const at = (iso: string) => h.clock.set(Date.parse(iso));

  beforeAll(async () => {
    h = await createHarness();
    await importRows(h, 'shop', 'customers', [{ customer_id: 1, time: 1 }]);
  });
  afterAll(() => h.close());

  it('rebuilds a daily segment at HH:MM in its time zone, once per slot', async () => {
    at('2026-11-22T09:00:00Z');
    // 06:30 in Tokyo is 21:30 UTC the day before.
    const record = await createParentSegment(h, {
      name: 'Daily',
      master,
      scheduleType: 'daily',
      scheduleOption: '06:30',
      timezone: 'Asia/Tokyo',
    });
    const firstBuild = record.buildJobId;
    expect(await tick()).toBe(0);
    at('2026-11-22T21:29:00Z');
    expect(await tick()).toBe(0);
    at('2026-11-22T21:30:10Z');
    expect(await tick()).toBe(1);
    const rebuilding = await ok(h.call('GET', `/audiences/${record.id}`));
    expect(rebuilding.buildJobId).not.toBe(firstBuild);
    // A build queued or running is not queued again, and the slot is not repeated after it.
    expect(await tick()).toBe(0);
    expect(await h.app.services.jobs.whenSettled(Number(rebuilding.buildJobId))).toBe('success');
    at('2026-11-22T22:30:00Z');
    expect(await tick()).toBe(0);
    at('2026-11-23T21:30:00Z');
    expect(await tick()).toBe(1);
    const again = await ok(h.call('GET', `/audiences/${record.id}`));
    expect(await h.app.services.jobs.whenSettled(Number(again.buildJobId))).toBe('success');
    const done = await ok(h.call('GET', `/audiences/${record.id}`));
    expect(done.matrixUpdatedAt).toBe('2026-11-23T21:30:00.000Z');
  });

  it('rebuilds an hourly segment at minute MM and leaves unscheduled ones alone', async () => {
    at('2026-11-24T10:00:00Z');
    const hourly = await createParentSegment(h, {
      name: 'Hourly',
      master,
      scheduleType: 'hourly',
      scheduleOption: '00:15',
    });
    const manual = await createParentSegment(h, { name: 'By hand', master });
    at('2026-11-24T10:14:00Z');
    expect(await tick()).toBe(0);
    at('2026-11-24T10:15:00Z');
    expect(await tick()).toBe(1);
    const rebuilt = await ok(h.call('GET', `/audiences/${hourly.id}`));
    await h.app.services.jobs.whenSettled(Number(rebuilt.buildJobId));
    at('2026-11-24T13:00:00Z');
    // One build for the slots missed while the server was busy, not one per slot.
    expect(await tick()).toBe(1);
    const still = await ok(h.call('GET', `/audiences/${manual.id}`));
    expect(still.buildJobId).toBe(manual.buildJobId);
    const last = await ok(h.call('GET', `/audiences/${hourly.id}`));
    await h.app.services.jobs.whenSettled(Number(last.buildJobId));
  });

  it('refuses a timed schedule without HH:MM, and an unknown time zone', async () => {
    const bad = (body: Json) => failure(h.call('POST', '/audiences', { json: { name: 'Bad', master, ...body } }), 400);
    expect(await bad({ scheduleType: 'daily', scheduleOption: '6:30' })).toMatch(/HH:MM/);
    expect(await bad({ scheduleType: 'daily', scheduleOption: '24:00' })).toMatch(/HH:MM/);
    expect(await bad({ scheduleType: 'hourly', scheduleOption: null })).toMatch(/only the minutes count/);
    expect(await bad({ scheduleType: 'daily', scheduleOption: '06:00', timezone: 'Mars/Olympus' })).toMatch(
      /IANA time zone/,
    );
  });
});
