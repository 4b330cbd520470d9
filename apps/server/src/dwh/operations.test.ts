import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { addAuthentication, type Json, ok, runAndWait, targetRows, warehouseSuite } from './testing/fixture';

/**
 * Day-two operations through `/v1`: pause and resume, status, a run's page, delete with the target tables,
 * authentications tested before saving, edited and deleted; and bad input answered 400 naming the field.
 */

const w = warehouseSuite('warehouse_operations');
const DB = w.database;

const eventsTable = (target: string, config: Json = {}) => ({
  target_table: target,
  config: {
    schema: 'public',
    table: 'events',
    columns: [
      { name: 'kind', type: 'string' },
      { name: 'n', type: 'long' },
      { name: 'at', type: 'string' },
    ],
    ...config,
  },
});

async function createEvents(authId: number, extra: Json = {}, table = eventsTable('events_ops')): Promise<number> {
  const created = await ok(
    w.h.call('POST', '/v1/dwh/', {
      json: {
        name: `events ${Math.random().toString(36).slice(2, 7)}`,
        basic_configs: { svc_authentication_id: authId },
        advanced_configs: [table],
        output_config: { database: 'dwh_target' },
        ...extra,
      },
    }),
  );
  return created.dwh_id as number;
}

async function refused(res: Response | Promise<Response>, status: number, message: RegExp): Promise<Json> {
  const r = await res;
  const body = (await r.json()) as Json;
  expect(r.status, JSON.stringify(body)).toBe(status);
  expect(body).toMatchObject({ status_code: status, severity: 'error' });
  expect(body.message).toMatch(message);
  return body;
}

describe('warehouse sync, day two', () => {
  it('answers bad input with 400 naming the field', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const post = (table: Json) =>
      w.h.call('POST', '/v1/dwh/', {
        json: {
          name: 'bad',
          basic_configs: { svc_authentication_id: authId },
          advanced_configs: [table],
          output_config: { database: 'dwh_target' },
        },
      });
    const merge = { mode: 'merge', incremental: true, incremental_columns: ['n'] };
    await refused(
      post(eventsTable('bad_mode', { mode: 'upsert' })),
      400,
      /"advanced_configs\.0\.config\.mode".*"merge"/,
    );
    await refused(
      post(eventsTable('bad_key', { ...merge, merge_keys: ['nope'] })),
      400,
      /"advanced_configs\[0\]\.config\.merge_keys": "nope" is not a loaded column of "public\.events"/,
    );
    await refused(
      post(eventsTable('no_key', merge)),
      400,
      /"advanced_configs\[0\]\.config\.merge_keys": merge mode needs a key, and "public\.events" has no primary key/,
    );
    await refused(
      post(eventsTable('no_cursor', { mode: 'merge', merge_keys: ['kind'] })),
      400,
      /"advanced_configs\[0\]\.config\.incremental_columns": merge mode needs an incremental column/,
    );
    await refused(
      post(eventsTable('twice', { ...merge, merge_keys: ['kind', 'kind'] })),
      400,
      /"advanced_configs\[0\]\.config\.merge_keys" names "kind" twice/,
    );
    await refused(
      w.h.call('POST', '/v1/dwh/', {
        json: {
          name: 'bad output',
          basic_configs: { svc_authentication_id: authId },
          advanced_configs: [eventsTable('bad_out')],
          output_config: { database: 'dwh_target', mode: 'dedup' },
        },
      }),
      400,
      /"output_config\.mode"/,
    );
    const dwhId = await createEvents(authId);
    await refused(w.h.call('DELETE', `/v1/dwh/${dwhId}?drop_tables=maybe`), 400, /"drop_tables"/);
    await refused(w.h.call('GET', '/v1/dwh/status?all=maybe'), 400, /"all"/);
    await refused(
      w.h.call('POST', '/v1/authentications', {
        json: { name: 'x', host: 'h', database: 'd', user: 'u', ssl_mode: 'allow' },
      }),
      400,
      /"ssl_mode".*"prefer"/,
    );
    await refused(w.h.call('POST', '/v1/authentications/test', { json: { database: 'd', user: 'u' } }), 400, /"host"/);
    for (const path of ['status', 'pause', 'resume', 'resync', 'session_attempts/1']) {
      const method = path === 'status' || path.startsWith('session') ? 'GET' : 'PUT';
      await refused(w.h.call(method, `/v1/dwh/999999/${path}`), 404, /./);
    }
    await refused(w.h.call('GET', `/v1/dwh/${dwhId}/session_attempts/999`), 404, /./);
    // Nothing was created by the refused requests.
    expect(((await ok(w.h.call('GET', '/v1/dwh/'))).items as Json[]).map((i) => i.id)).toEqual([dwhId]);
  });

  it('pauses and resumes the schedule; the status shows next and last run and rows moved; a run shows each table', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    // The harness clock is 09:00 UTC: an hourly schedule at minute 15 runs next at 09:15.
    const dwhId = await createEvents(authId, { schedule_type: 'hourly', schedule_option: '15', timezone: 'UTC' });
    expect(await ok(w.h.call('GET', `/v1/dwh/${dwhId}/status`))).toMatchObject({
      dwh_id: dwhId,
      state: 'active',
      paused_at: null,
      next_run_at: '2026-11-22T09:15:00.000Z',
      last_run: null,
      rows_moved: 0,
    });
    const paused = await ok(w.h.call('PUT', `/v1/dwh/${dwhId}/pause`));
    expect(paused).toMatchObject({ state: 'paused', next_run_at: null, paused_at: '2026-11-22T09:00:00.000Z' });
    w.h.clock.advance(20 * 60_000);
    expect(await w.h.app.services.bulkLoads.tick()).toBe(0);

    // A paused sync still runs by hand.
    const attempt = await runAndWait(w.h, dwhId);
    expect(attempt).toMatchObject({ status: 'success', resync: false, records: 2 });
    const status = await ok(w.h.call('GET', `/v1/dwh/${dwhId}/status`));
    expect(status).toMatchObject({
      state: 'paused',
      rows_moved: 2,
      last_run: { attempt_id: attempt.attempt_id, status: 'success', trigger: 'manual', records: 2 },
    });
    expect((status.last_run as Json).duration_seconds).toEqual(expect.any(Number));

    const page = await ok(w.h.call('GET', `/v1/dwh/${dwhId}/session_attempts/${attempt.attempt_id}`));
    expect(page.tables).toEqual([
      expect.objectContaining({
        target_table: 'events_ops',
        status: 'success',
        records: 2,
        error: null,
        started_at: expect.stringMatching(/^2026-11-22T09:20/),
        finished_at: expect.stringMatching(/^2026-11-22T09:20/),
        duration_seconds: expect.any(Number),
      }),
    ]);

    // Resumed at 09:20: the missed 09:15 is not made up; 10:15 is next.
    const resumed = await ok(w.h.call('PUT', `/v1/dwh/${dwhId}/resume`));
    expect(resumed).toMatchObject({ state: 'active', paused_at: null, next_run_at: '2026-11-22T10:15:00.000Z' });
    expect(await w.h.app.services.bulkLoads.tick()).toBe(0);
    w.h.clock.advance(55 * 60_000);
    expect(await w.h.app.services.bulkLoads.tick()).toBe(1);
    const attempts = await ok(w.h.call('GET', `/v1/dwh/${dwhId}/session_attempts`));
    const scheduled = (attempts.items as Json[])[0] as Json;
    expect(scheduled.trigger).toBe('schedule');
    for (const t of scheduled.tables as Json[]) await w.h.app.services.jobs.whenSettled(t.job_id as number);

    const list = await ok(w.h.call('GET', '/v1/dwh/status'));
    expect(list.items).toEqual([
      expect.objectContaining({
        dwh_id: dwhId,
        state: 'active',
        rows_moved: 4,
        next_run_at: '2026-11-22T11:15:00.000Z',
      }),
    ]);
    // Another account sees none of it.
    const other = await w.h.newAccount('Other');
    await ok(w.h.call('PUT', '/v1/dwh/feature', { key: other.masterKey, json: { enabled: true } }));
    await refused(w.h.call('PUT', `/v1/dwh/${dwhId}/pause`, { key: other.masterKey }), 404, /./);
    expect((await ok(w.h.call('GET', '/v1/dwh/status', { key: other.masterKey }))).items).toEqual([]);
  });

  it('deletes a sync with its target tables, refused while a run still loads them', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const authId = await addAuthentication(w.h, w.server, DB, w.creds);
      const dwhId = await createEvents(authId, {}, eventsTable('events_gone'));
      await runAndWait(w.h, dwhId);
      expect(await targetRows(w.h, 'events_gone')).toHaveLength(2);

      // A run that cannot end until the silent server lets go of it.
      const port = (silent.address() as { port: number }).port;
      await ok(w.h.call('PATCH', `/v1/authentications/${authId}`, { json: { host: '127.0.0.1', port } }));
      const run = await ok(w.h.call('PUT', `/v1/dwh/${dwhId}/run_workflow`));
      await refused(
        w.h.call('DELETE', `/v1/dwh/${dwhId}?drop_tables=true`),
        409,
        /still loading events_gone \(job \d+ (queued|running)\); wait for it to end/,
      );
      const attempts = await ok(w.h.call('GET', `/v1/dwh/${dwhId}/session_attempts`));
      expect((attempts.items as Json[])[0]?.attempt_id).toBe(Number(run.id));
      while (sockets.size === 0) await new Promise((resolve) => setImmediate(resolve));
      for (const s of sockets) s.destroy();
      for (const t of ((attempts.items as Json[])[0] as Json).tables as Json[]) {
        expect(await w.h.app.services.jobs.whenSettled(t.job_id as number)).toBe('error');
      }

      await ok(w.h.call('DELETE', `/v1/dwh/${dwhId}?drop_tables=true`));
      await refused(w.h.call('GET', '/v3/table/show/dwh_target/events_gone'), 404, /./);
      expect(await targetRows(w.h, 'events_gone')).toEqual([]);
      await refused(w.h.call('GET', `/v1/dwh/${dwhId}`), 404, /./);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('tests settings before saving, edits with the stored password, and refuses to delete one in use, naming who uses it', async () => {
    const settings = {
      host: w.server.host,
      port: w.server.port,
      database: DB,
      user: w.creds.user,
      password: w.creds.password,
    };
    // The default SSL mode is prefer: the test server offers no TLS, so it connects without.
    expect(await ok(w.h.call('POST', '/v1/authentications/test', { json: settings }))).toMatchObject({
      ok: true,
      tls: false,
      message: expect.stringMatching(/^Connected to PostgreSQL .+ without TLS \(the server offers none/),
    });
    expect(
      await ok(w.h.call('POST', '/v1/authentications/test', { json: { ...settings, ssl_mode: 'require' } })),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/does not offer TLS/) });
    expect(
      await ok(w.h.call('POST', '/v1/authentications/test', { json: { ...settings, password: 'wrong' } })),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/check the user name and password/) });
    // Nothing was stored by the tests.
    expect((await ok(w.h.call('GET', '/v1/authentications'))).authentications).toEqual([]);

    const saved = await ok(w.h.call('POST', '/v1/authentications', { json: { name: 'warehouse', ...settings } }));
    expect(saved).toMatchObject({ ssl_mode: 'prefer', password_set: true });
    const id = saved.id as number;
    // Edits are tried with the stored password before they are saved.
    expect(
      await ok(w.h.call('POST', `/v1/authentications/${id}/test`, { json: { database: 'no_such_db' } })),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/has no database "no_such_db"/) });
    expect(await ok(w.h.call('POST', `/v1/authentications/${id}/test`, { json: { name: 'renamed' } }))).toMatchObject({
      ok: true,
    });
    expect((await ok(w.h.call('GET', `/v1/authentications/${id}`))).database).toBe(DB);
    expect(
      await ok(w.h.call('PATCH', `/v1/authentications/${id}`, { json: { name: 'renamed', ssl_mode: 'disable' } })),
    ).toMatchObject({ name: 'renamed', ssl_mode: 'disable', password_set: true });

    const dwhId = await createEvents(id);
    const name = (await ok(w.h.call('GET', `/v1/dwh/${dwhId}`))).name as string;
    const body = await refused(
      w.h.call('DELETE', `/v1/authentications/${id}`),
      409,
      new RegExp(
        `"renamed" is used by the integration "${name}" of ${w.h.admin.email.replace(/[.]/g, '\\.')}; change them`,
      ),
    );
    expect((body.details as Json).used_by).toEqual({
      integrations: [{ id: dwhId, name, owner: w.h.admin.email }],
      bulk_loads: [],
    });
    await ok(w.h.call('DELETE', `/v1/dwh/${dwhId}`));
    await ok(w.h.call('DELETE', `/v1/authentications/${id}`));
    expect((await ok(w.h.call('GET', '/v1/authentications'))).authentications).toEqual([]);
  });
});
