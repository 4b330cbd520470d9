import { scheduleHistory, scheduleList, scheduleObject } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableWithRows } from '../jobs/testing/jobs';
import { createHarness, type Harness } from '../testing/harness';

/** Pausing and resuming a scheduled query (`paused` on update): no slot fires while paused, none made up after. */

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await tableWithRows(h, 'web', 'pageviews', [{ time: 1_700_000_000, path: '/a' }]);
  const res = await h.call('POST', '/v3/schedule/create/hourly', {
    form: { database: 'web', cron: '@hourly', query: 'SELECT 1', type: 'presto' },
  });
  expect(res.status).toBe(200);
}, 30_000);
afterEach(async () => {
  await h.close();
});

const at = (iso: string) => h.clock.set(Date.parse(iso));
const tick = () => h.app.services.schedules.tick();
const update = (json: Record<string, unknown>) => h.call('POST', '/v3/schedule/update/hourly', { json });
const shown = async () =>
  scheduleList
    .parse(await (await h.call('GET', '/v3/schedule/list')).json())
    .schedules.find((s) => s.name === 'hourly');
const history = async () =>
  scheduleHistory.parse(await (await h.call('GET', '/v3/schedule/history/hourly')).json()).history;

describe('pausing a scheduled query', () => {
  it('fires nothing while paused, and resumes from the moment of the resume', async () => {
    expect(await shown()).toMatchObject({ paused: false, next_time: '2026-11-22T10:00:00Z' });
    const paused = await update({ paused: true });
    expect(paused.status).toBe(200);
    expect(scheduleObject.parse(await paused.json())).toMatchObject({ paused: true, next_time: null });

    at('2026-11-22T10:00:00Z');
    expect(await tick()).toBe(0);
    at('2026-11-22T11:30:00Z');
    expect(await tick()).toBe(0);
    // Run now still works while paused.
    expect((await h.call('POST', '/v3/schedule/run/hourly/1767225600')).status).toBe(200);
    expect(await history()).toHaveLength(1);

    const resumed = await update({ paused: 'false' });
    expect(scheduleObject.parse(await resumed.json())).toMatchObject({
      paused: false,
      next_time: '2026-11-22T12:00:00Z',
    });
    // The 10:00 and 11:00 slots missed while paused never fire.
    expect(await tick()).toBe(0);
    at('2026-11-22T12:00:00Z');
    expect(await tick()).toBe(1);
    expect((await history()).map((j) => j.scheduled_at)).toContain('2026-11-22 12:00:00 UTC');
  });

  it('keeps the pause across other changes, and refuses a value that is not true or false', async () => {
    await update({ paused: true });
    expect((await update({ query: 'SELECT 2' })).status).toBe(200);
    expect(await shown()).toMatchObject({ paused: true, query: 'SELECT 2' });
    const bad = await update({ paused: 'soon', query: 'SELECT 3' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/"paused" must be true or false/);
    expect(await shown()).toMatchObject({ paused: true, query: 'SELECT 2' });
  });
});
