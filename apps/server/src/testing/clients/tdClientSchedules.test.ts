import { Readable } from 'node:stream';
import { encodePart } from '@svc/bulk-format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { call, type Listening, listen, ok, type TDClient } from './tdNode';

/**
 * The methods of td-client-node 0.5.0 (npm `td`, unmodified) that the schedule and table-import routes
 * serve, over HTTP against the app on a real port: createSchedule, listSchedules, updateSchedule, history,
 * runSchedule, deleteSchedule, import (with and without a unique id) and swapTable.
 */

let h: Harness;
let server: Listening;
let td: TDClient;

beforeEach(async () => {
  h = await createHarness();
  server = await listen(h);
  td = server.client(h.admin.masterKey);
  await ok((cb) => td.createDatabase('node_db', cb));
  await ok((cb) => td.createLogTable('node_db', 'events', cb));
}, 30_000);
afterEach(async () => {
  await server.close();
  await h.close();
});

type Json = Record<string, unknown>;

describe('td-client-node', () => {
  it('createSchedule, listSchedules, updateSchedule, runSchedule, history, deleteSchedule', async () => {
    // The client sets type hive and sends the options as JSON.
    const created = await ok((cb) =>
      td.createSchedule(
        'node_sched',
        { cron: '0 * * * *', query: 'SELECT count(*) FROM events', database: 'node_db' },
        cb,
      ),
    );
    expect(created).toMatchObject({ name: 'node_sched', type: 'hive', start: '2026-11-22T10:00:00Z' });
    const refused = await call((cb) => td.createSchedule('node_sched', { cron: '', query: 'SELECT 1' }, cb));
    expect(refused.err?.message).toBe('opts.cron and opts.query is required!');
    const { schedules } = await ok<{ schedules: Json[] }>((cb) => td.listSchedules(cb));
    expect(schedules.map((s) => s.name)).toEqual(['node_sched']);
    const updated = await ok((cb) => td.updateSchedule('node_sched', { query: 'SELECT 2 AS n' }, cb));
    expect(updated).toMatchObject({ query: 'SELECT 2 AS n', cron: '0 * * * *' });
    // runSchedule sends `num` in the query string.
    const run = await ok<{ jobs: Json[] }>((cb) => td.runSchedule('node_sched', 1_767_225_600, cb));
    expect(run.jobs).toEqual([{ job_id: expect.any(Number), type: 'hive', scheduled_at: '2026-01-01 00:00:00 UTC' }]);
    expect(await h.app.services.jobs.whenSettled(run.jobs[0]?.job_id as number)).toBe('success');
    const { history } = await ok<{ history: Json[] }>((cb) => td.history('node_sched', cb));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ status: 'success', scheduled_at: '2026-01-01 00:00:00 UTC' });
    expect(await ok((cb) => td.deleteSchedule('node_sched', cb))).toMatchObject({ name: 'node_sched' });
    const gone = await call((cb) => td.deleteSchedule('node_sched', cb));
    expect(gone.err?.message).toBe('Resource not found');
  });

  it('import (msgpack.gz, with and without a unique id) and swapTable', async () => {
    const part = await encodePart([
      { time: 1_700_000_000, page: '/a' },
      { time: 1_700_000_001, page: '/b' },
    ]);
    // The client's PUT sends `TD1` itself and does not parse the answer.
    await ok((cb) => td.import('node_db', 'events', 'msgpack.gz', Readable.from([part]), part.length, cb));
    for (let i = 0; i < 2; i++) {
      await ok((cb) => td.import('node_db', 'events', 'msgpack.gz', Readable.from([part]), part.length, 'chunk-1', cb));
    }
    const refused = await call((cb) => td.import('node_db', 'events', 'json', Readable.from([part]), part.length, cb));
    expect(refused.err?.message).toBe('HTTP 400');
    await ok((cb) => td.createLogTable('node_db', 'other', cb));
    await ok((cb) => td.swapTable('node_db', 'events', 'other', cb));
    const { tables } = await ok<{ tables: Json[] }>((cb) => td.listTables('node_db', cb));
    expect(Object.fromEntries(tables.map((t) => [t.name, t.count]))).toEqual({ events: 0, other: 4 });
  });
});
