import { scheduleCreated, scheduleHistory, scheduleList, scheduleObject, scheduleRuns } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tableWithRows } from '../jobs/testing/jobs';
import { createHarness, type Harness } from '../testing/harness';
import { responseErrors } from '../testing/oasContract';
import { MAX_SCHEDULES } from './service';
import { insertSchedule } from './store';

/** The /v3/schedule routes as the clients call them (the scheduler itself: scheduler.test.ts). */

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await tableWithRows(h, 'web', 'pageviews', [{ time: 1_700_000_000, path: '/a' }]);
}, 30_000);
afterEach(async () => {
  await h.close();
});

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
const message = async (res: Response) => ((await res.json()) as { message: string }).message;
const create = (name: string, form: Record<string, string>) =>
  h.call('POST', `/v3/schedule/create/${encodeURIComponent(name)}`, { form });
const QUERY = 'SELECT count(*) AS n FROM pageviews';

describe('POST /v3/schedule/create/:name', () => {
  it('creates from the form the Ruby client and the CLI send, answering the schedule and its start', async () => {
    // `td sched:create` sends every option, the ones it has no value for empty.
    const res = await create('daily_count', {
      cron: '@daily',
      query: QUERY,
      database: 'web',
      result: '',
      timezone: 'Asia/Tokyo',
      delay: '600',
      priority: '',
      retry_limit: '',
      type: 'presto',
      engine_version: '',
    });
    expect(res.status).toBe(200);
    const body = scheduleCreated.parse(await res.json());
    // Now is 2026-11-22 09:00 UTC, 18:00 in Tokyo: the next local midnight is 15:00 UTC.
    expect(body).toMatchObject({
      name: 'daily_count',
      cron: '@daily',
      timezone: 'Asia/Tokyo',
      delay: 600,
      type: 'presto',
      database: 'web',
      query: QUERY,
      priority: 0,
      retry_limit: 0,
      result: '',
      start: '2026-11-22T15:00:00Z',
      next_time: '2026-11-22T15:00:00Z',
      created_at: '2026-11-22T09:00:00Z',
    });
    expect(body.user_name).not.toBe('');
    expect(responseErrors('post', '/schedule/create/{schedule_name}', body)).toEqual([]);
  });

  it('takes JSON (td-client-node) with the hive default, and an empty cron as on-demand only (start null)', async () => {
    const node = await h.call('POST', '/v3/schedule/create/hourly_count', {
      json: { cron: '0 * * * *', query: QUERY, database: 'web' },
    });
    expect(await json(node)).toMatchObject({ type: 'hive', timezone: 'UTC', start: '2026-11-22T10:00:00Z' });
    const saved = await create('saved_query', { cron: '', query: QUERY, database: 'web', type: 'presto' });
    expect(await json(saved)).toMatchObject({ cron: null, start: null, next_time: null });
  });

  it('answers 409 for a name in use, as the clients expect for "already exists"', async () => {
    expect((await create('twice', { cron: '@hourly', query: QUERY, database: 'web' })).status).toBe(200);
    const again = await create('twice', { cron: '@daily', query: 'SELECT 1', database: 'web' });
    expect(again.status).toBe(409);
    expect(await message(again)).toContain('"twice" already exists');
  });

  it('refuses each invalid setting with 400 naming the field', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ cron: '61 * * * *' }, '"cron"'],
      [{ cron: '* * * *' }, '"cron" must have five fields'],
      [{ cron: '0 0 30 2 *' }, 'never fires'],
      [{ timezone: 'Mars/Olympus' }, '"timezone"'],
      [{ timezone: 'PST8PDT!' }, '"timezone"'],
      [{ delay: '-5' }, '"delay"'],
      [{ type: 'pig' }, '"type"'],
      [{ priority: '7' }, '"priority"'],
      [{ retry_limit: '99' }, '"retry_limit"'],
      [{ query: '' }, '"query"'],
      [{ query: 'DELETE FROM pageviews' }, '"query"'],
      [{ database: 'Bad-Name' }, '"database"'],
      [{ result: 'no_such_connection' }, '"result"'],
      [{ result: 'td://@/onlydb' }, '"result"'],
    ];
    for (const [change, field] of cases) {
      const res = await create('bad', { cron: '@daily', query: QUERY, database: 'web', ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(await message(res), JSON.stringify(change)).toContain(field);
    }
    const slash = await create('a/b', { cron: '@daily', query: QUERY, database: 'web' });
    expect(slash.status).toBe(400);
    expect(await message(slash)).toContain('"name"');
    expect(await json(await h.call('GET', '/v3/schedule/list'))).toEqual({ schedules: [] });
  });

  it('refuses a missing query or database (400), an unknown database (404), other result outputs (422)', async () => {
    expect(await message(await create('a', { cron: '@daily', database: 'web' }))).toContain('Send "query"');
    expect(await message(await create('a', { cron: '@daily', query: QUERY }))).toContain('Send "database"');
    expect((await create('a', { cron: '@daily', query: QUERY, database: 'nowhere' })).status).toBe(404);
    const s3 = await create('a', { cron: '@daily', query: QUERY, database: 'web', result: 's3://bucket/key' });
    expect(s3.status).toBe(422);
    expect(await message(s3)).toContain('td://@/<database>/<table>');
    // A connection writing neither a table nor a webhook (https:// ones are result outputs: resultWebhook.test.ts).
    await h.call('POST', '/v3/result/create/files', { form: { url: 'ftp://files.example.com/in' } });
    const ftp = await create('a', { cron: '@daily', query: QUERY, database: 'web', result: 'files' });
    expect(ftp.status).toBe(422);
    expect(await message(ftp)).toContain('writes neither a table nor a webhook');
  });

  it('refuses a schedule past the account’s limit of 1000 with 422', async () => {
    const settings = { cron: null, timezone: 'UTC', delay: 0, type: 'hive', database_name: 'web', query: QUERY };
    const rest = { priority: 0, retry_limit: 0, result: '', engine_version: null };
    for (let i = 0; i < MAX_SCHEDULES; i++) {
      await insertSchedule(
        h.deps.storage.db,
        h.admin.accountId,
        h.admin.userId,
        { name: `s${i}`, ...settings, ...rest },
        0,
      );
    }
    const res = await create('one_more', { cron: '@daily', query: QUERY, database: 'web' });
    expect(res.status).toBe(422);
    expect(await message(res)).toContain('at most 1000 schedules');
  });

  it('refuses write-only keys with 403 and keeps accounts apart', async () => {
    const writeOnly = await h.call('POST', '/v3/schedule/create/x_y', {
      form: { cron: '@daily', query: QUERY, database: 'web' },
      key: h.admin.writeOnlyKey,
    });
    expect(writeOnly.status).toBe(403);
    await create('mine', { cron: '@daily', query: QUERY, database: 'web' });
    const other = await h.newAccount('Other');
    expect(await json(await h.call('GET', '/v3/schedule/list', { key: other.masterKey }))).toEqual({ schedules: [] });
    for (const [method, path] of [
      ['POST', '/v3/schedule/update/mine'],
      ['POST', '/v3/schedule/delete/mine'],
      ['GET', '/v3/schedule/history/mine'],
      ['POST', '/v3/schedule/run/mine/1767225600'],
    ] as const) {
      const opts = method === 'POST' ? { form: { delay: '1' } } : {};
      expect((await h.call(method, path, { key: other.masterKey, ...opts })).status, path).toBe(404);
    }
  });
});

describe('list, update and delete', () => {
  beforeEach(async () => {
    await create('hourly', { cron: '@hourly', query: QUERY, database: 'web', result: 'td://KEY123@/web/counts' });
  });

  it('lists every schedule with next_time, masking credentials in result URLs (trailing slash too)', async () => {
    const res = await h.call('GET', '/v3/schedule/list/');
    const body = scheduleList.parse(await res.json());
    expect(body.schedules).toHaveLength(1);
    expect(body.schedules[0]).toMatchObject({
      name: 'hourly',
      cron: '@hourly',
      next_time: '2026-11-22T10:00:00Z',
      result: 'td://***@/web/counts',
    });
    expect(responseErrors('get', '/schedule/list', body)).toEqual([]);
  });

  it('changes only what is sent; a rename moves the schedule, onto a taken name is 409', async () => {
    const res = await h.call('POST', '/v3/schedule/update/hourly', {
      form: { cron: '30 * * * *', timezone: 'Europe/Paris', priority: 'HIGH', retry_limit: '2', name: 'half_past' },
    });
    expect(res.status).toBe(200);
    const body = scheduleObject.parse(await res.json());
    expect(body).toMatchObject({
      name: 'half_past',
      cron: '30 * * * *',
      timezone: 'Europe/Paris',
      priority: 1,
      retry_limit: 2,
      query: QUERY,
      next_time: '2026-11-22T09:30:00Z',
    });
    expect(responseErrors('post', '/schedule/update/{schedule_name}', body)).toEqual([]);
    expect((await h.call('POST', '/v3/schedule/update/hourly', { form: { delay: '5' } })).status).toBe(404);
    await create('other', { cron: '', query: QUERY, database: 'web' });
    const taken = await h.call('POST', '/v3/schedule/update/other', { form: { name: 'half_past' } });
    expect(taken.status).toBe(409);
    const cleared = await h.call('POST', '/v3/schedule/update/half_past', { form: { cron: '', result: '' } });
    expect(await json(cleared)).toMatchObject({ cron: null, next_time: null, result: '' });
    const invalid = await h.call('POST', '/v3/schedule/update/half_past', { json: { timezone: 'Nowhere/Land' } });
    expect(invalid.status).toBe(400);
    expect(await message(invalid)).toContain('"timezone"');
  });

  it('deletes, answering the cron and query the clients read; then the name is unknown', async () => {
    const res = await h.call('POST', '/v3/schedule/delete/hourly');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ name: 'hourly', cron: '@hourly', query: QUERY });
    expect(responseErrors('post', '/schedule/delete/{schedule_name}', body)).toEqual([]);
    expect((await h.call('POST', '/v3/schedule/delete/hourly')).status).toBe(404);
    expect((await h.call('GET', '/v3/schedule/history/hourly')).status).toBe(404);
    expect((await h.call('POST', '/v3/schedule/run/hourly/1767225600')).status).toBe(404);
  });
});

describe('run and history', () => {
  it('runs now for a time and the next slots; the jobs carry the schedule and run as of their slot', async () => {
    await create('hourly', { cron: '@hourly', query: 'SELECT TD_SCHEDULED_TIME() AS t', database: 'web' });
    const res = await h.call('POST', '/v3/schedule/run/hourly/1767225600', { form: { num: '3' } });
    expect(res.status).toBe(200);
    const body = scheduleRuns.parse(await res.json());
    expect(responseErrors('post', '/schedule/run/{schedule_name}/{schedule_time}', body)).toEqual([]);
    expect(body.jobs.map((j) => j.scheduled_at)).toEqual([
      '2026-01-01 00:00:00 UTC',
      '2026-01-01 01:00:00 UTC',
      '2026-01-01 02:00:00 UTC',
    ]);
    expect(body.jobs.map((j) => j.type)).toEqual(['hive', 'hive', 'hive']);
    for (const job of body.jobs) expect(await h.app.services.jobs.whenSettled(job.job_id)).toBe('success');
    const last = body.jobs[2]?.job_id;
    expect(await (await h.call('GET', `/v3/job/result/${last}?format=json`)).text()).toBe('[1767232800]\n');
    const shown = await json(await h.call('GET', `/v3/job/show/${last}`));
    expect(shown).toMatchObject({ schedule_name: 'hourly', scheduled_at: '2026-01-01 02:00:00 UTC' });
  });

  it('answers history newest first with from/to paging (to exclusive) and every job field', async () => {
    await create('saved', { cron: '', query: QUERY, database: 'web', type: 'presto' });
    for (const t of ['1767225600', '2026-01-02T00:00:00Z', '1767398400']) {
      const res = await h.call('POST', `/v3/schedule/run/saved/${t}`);
      const [job] = scheduleRuns.parse(await res.json()).jobs;
      expect(await h.app.services.jobs.whenSettled(job?.job_id as number)).toBe('success');
    }
    const res = await h.call('GET', '/v3/schedule/history/saved?from=0&to=2');
    const body = scheduleHistory.parse(await res.json());
    expect(responseErrors('get', '/schedule/history/{schedule_name}', body)).toEqual([]);
    expect(body).toMatchObject({ count: 3, from: 0, to: 2 });
    expect(body.history.map((j) => j.scheduled_at)).toEqual(['2026-01-03 00:00:00 UTC', '2026-01-02 00:00:00 UTC']);
    expect(body.history[0]).toMatchObject({ status: 'success', type: 'presto', query: QUERY, num_records: 1 });
    const rest = scheduleHistory.parse(await (await h.call('GET', '/v3/schedule/history/saved?from=2')).json());
    expect(rest.history.map((j) => j.scheduled_at)).toEqual(['2026-01-01 00:00:00 UTC']);
    expect((await h.call('GET', '/v3/schedule/history/saved?from=3&to=1')).status).toBe(400);
  });

  it('refuses a bad time or num with 400, and num above 1 for a schedule without a cron', async () => {
    await create('saved', { cron: '', query: QUERY, database: 'web' });
    const time = await h.call('POST', '/v3/schedule/run/saved/yesterday');
    expect(time.status).toBe(400);
    expect(await message(time)).toContain('"time"');
    const num = await h.call('POST', '/v3/schedule/run/saved/1767225600', { form: { num: '11' } });
    expect(num.status).toBe(400);
    expect(await message(num)).toContain('"num"');
    const many = await h.call('POST', '/v3/schedule/run/saved/1767225600?num=2');
    expect(many.status).toBe(400);
    expect(await message(many)).toContain('runs only on demand');
  });
});
