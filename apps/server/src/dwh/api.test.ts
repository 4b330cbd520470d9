import { describe, expect, it } from 'vitest';
import { sql as controlSql, one } from '../platform/storage';
import { insertAuthentication } from './authentications';
import { addAuthentication, type Json, ok, targetRows, warehouseSuite } from './testing/fixture';
import { sql } from './testing/postgres';

const w = warehouseSuite('warehouse_api');
const DB = w.database;

describe('data-warehouse sync API', () => {
  it('is off until an administrator enables it, and refuses write-only keys', async () => {
    const other = await w.h.newAccount('Other');
    const off = await w.h.call('GET', '/v1/authentications', { key: other.masterKey });
    expect(off.status).toBe(403);
    expect(((await off.json()) as { message: string }).message).toMatch(
      /not enabled for this account.*PUT \/v1\/dwh\/feature/,
    );
    expect((await w.h.call('POST', '/v1/guess', { key: other.masterKey, json: {} })).status).toBe(403);
    expect((await w.h.call('GET', '/v1/dwh/', { key: w.h.admin.writeOnlyKey })).status).toBe(403);
    expect(
      (await w.h.call('PUT', '/v1/dwh/feature', { key: w.h.admin.writeOnlyKey, json: { enabled: true } })).status,
    ).toBe(403);
    await ok(w.h.call('PUT', '/v1/dwh/feature', { key: other.masterKey, json: { enabled: true } }));
    expect((await w.h.call('GET', '/v1/authentications', { key: other.masterKey })).status).toBe(200);
  });

  it('stores authentications encrypted, never returns the password, and keeps them to the account', async () => {
    const id = await addAuthentication(w.h, w.server, DB, w.creds);
    const list = await w.h.call('GET', '/v1/authentications');
    const text = await list.text();
    expect(text).not.toContain(w.creds.password);
    expect(JSON.parse(text)).toEqual({
      authentications: [
        expect.objectContaining({
          id,
          svc_authentication_id: id,
          type: 'postgresql',
          user: 'svc_reader',
          password_set: true,
          ssl_mode: 'disable',
        }),
      ],
    });
    const stored = (await one<{ secret_enc: string }>(
      w.h.deps.storage.db,
      controlSql`SELECT secret_enc FROM dwh_authentications WHERE id = ${id}`,
    )) as { secret_enc: string };
    expect(stored.secret_enc).toMatch(/^v1:/);
    expect(stored.secret_enc).not.toContain(w.creds.password);
    const test = await ok(w.h.call('POST', `/v1/authentications/${id}/test`));
    expect(test).toMatchObject({ ok: true, server_version: expect.stringMatching(/^\d+/) });

    const other = await w.h.newAccount('Other');
    await ok(w.h.call('PUT', '/v1/dwh/feature', { key: other.masterKey, json: { enabled: true } }));
    expect((await w.h.call('GET', `/v1/authentications/${id}`, { key: other.masterKey })).status).toBe(404);
    expect((await w.h.call('POST', `/v1/authentications/${id}/test`, { key: other.masterKey })).status).toBe(404);
    const bad = await w.h.call('POST', '/v1/authentications', {
      json: { name: 'x', host: 'h', database: 'd', user: 'u', port: 70000 },
    });
    expect(bad.status).toBe(400);
    expect(
      (
        await w.h.call('POST', '/v1/authentications', {
          json: { name: 'warehouse', host: 'h', database: 'd', user: 'u' },
        })
      ).status,
    ).toBe(409);
    await ok(w.h.call('DELETE', `/v1/authentications/${id}`));
    expect((await w.h.call('GET', `/v1/authentications/${id}`)).status).toBe(404);
  });

  it('changes an authentication with PATCH: a new password is re-encrypted, the same checks as create', async () => {
    const id = await addAuthentication(w.h, w.server, DB, { ...w.creds, password: 'wrong-one' });
    const before = (await one<{ secret_enc: string }>(
      w.h.deps.storage.db,
      controlSql`SELECT secret_enc FROM dwh_authentications WHERE id = ${id}`,
    )) as { secret_enc: string };
    expect((await ok(w.h.call('POST', `/v1/authentications/${id}/test`))).ok).toBe(false);
    const changed = await w.h.call('PATCH', `/v1/authentications/${id}`, { json: { password: w.creds.password } });
    expect(changed.status).toBe(200);
    const text = await changed.text();
    expect(text).not.toContain(w.creds.password);
    expect(JSON.parse(text)).toMatchObject({ id, password_set: true, user: 'svc_reader', host: w.server.host });
    const after = (await one<{ secret_enc: string }>(
      w.h.deps.storage.db,
      controlSql`SELECT secret_enc FROM dwh_authentications WHERE id = ${id}`,
    )) as { secret_enc: string };
    expect(after.secret_enc).toMatch(/^v1:/);
    expect(after.secret_enc).not.toBe(before.secret_enc);
    expect(after.secret_enc).not.toContain(w.creds.password);
    expect((await ok(w.h.call('POST', `/v1/authentications/${id}/test`))).ok).toBe(true);

    const bad = await w.h.call('PATCH', `/v1/authentications/${id}`, { json: { port: 70000 } });
    expect(bad.status).toBe(400);
    await addAuthentication(w.h, w.server, DB, w.creds, 'second');
    expect((await w.h.call('PATCH', `/v1/authentications/${id}`, { json: { name: 'second' } })).status).toBe(409);
    const other = await w.h.newAccount('Other');
    await ok(w.h.call('PUT', '/v1/dwh/feature', { key: other.masterKey, json: { enabled: true } }));
    const foreign = await w.h.call('PATCH', `/v1/authentications/${id}`, {
      key: other.masterKey,
      json: { password: 'x' },
    });
    expect(foreign.status).toBe(404);
    expect((await ok(w.h.call('POST', `/v1/authentications/${id}/test`))).ok).toBe(true);
  });

  it('refuses loopback warehouses in every spelling, at save and at connection, unless the installation allows them', async () => {
    const strict = await import('../testing/harness').then((m) => m.createHarness());
    try {
      await strict.call('PUT', '/v1/dwh/feature', { json: { enabled: true } });
      const spec = { port: w.server.port, database: DB, user: 'u', password: 'p', ssl_mode: 'disable' as const };
      const forms = [
        '127.0.0.1',
        '127.1',
        '2130706433',
        '0x7f000001',
        '0177.0.0.1',
        '::1',
        '::ffff:127.0.0.1',
        'localhost',
      ];
      for (const [i, host] of forms.entries()) {
        const saved = await strict.call('POST', '/v1/authentications', { json: { name: `l${i}`, host, ...spec } });
        expect(saved.status, host).toBe(400);
        expect(JSON.stringify(await saved.json())).toMatch(/loopback/);
        // Stored before the check existed (or by an older version): the connection is refused too.
        const row = await insertAuthentication(strict.deps, strict.admin.accountId, strict.admin.userId, {
          name: `old${i}`,
          host,
          ...spec,
        });
        const test = await ok(strict.call('POST', `/v1/authentications/${row.id}/test`));
        expect(test, host).toMatchObject({ ok: false, message: expect.stringMatching(/loopback/) });
      }
      const metadata = await strict.call('POST', '/v1/authentications', {
        json: { name: 'meta', host: '169.254.169.254', ...spec },
      });
      expect(metadata.status).toBe(400);
      const moved = await strict.call('POST', '/v1/authentications', {
        json: { name: 'ok', host: '10.0.0.7', ...spec },
      });
      expect(moved.status).toBe(200);
      const id = ((await moved.json()) as { id: number }).id;
      const patched = await strict.call('PATCH', `/v1/authentications/${id}`, { json: { host: '0x7f.1' } });
      expect(patched.status).toBe(400);
    } finally {
      strict.close();
    }
  });

  it('lists databases, schemas, tables and a table schema', async () => {
    const id = await addAuthentication(w.h, w.server, DB, w.creds);
    expect((await ok(w.h.call('GET', `/v1/authentications/${id}/databases`))).databases).toContainEqual({ name: DB });
    expect((await ok(w.h.call('GET', `/v1/authentications/${id}/schemas`))).schemas).toEqual([{ name: 'public' }]);
    const tables = (await ok(w.h.call('GET', `/v1/authentications/${id}/tables?schema=public`))).tables as Json[];
    expect(tables.map((t) => t.name)).toEqual(['events', 'orders']);
    expect(tables[1]).toMatchObject({ schema: 'public', kind: 'table', estimated_rows: 100000 });
    const schema = await ok(w.h.call('GET', `/v1/authentications/${id}/tables/public/orders`));
    expect((schema.columns as Json[]).find((c) => c.name === 'price')).toEqual({
      name: 'price',
      source_type: 'numeric(12,2)',
      nullable: true,
      primary_key: false,
      type: 'double',
      options: ['double', 'string', 'long'],
      skipped_reason: null,
    });
    // Another database of the same server, with ?database=.
    await sql(w.server, 'postgres', `DROP DATABASE IF EXISTS ${DB}_other`);
    await sql(w.server, 'postgres', `CREATE DATABASE ${DB}_other`);
    await sql(
      w.server,
      `${DB}_other`,
      'CREATE TABLE public.elsewhere (k int); GRANT SELECT ON public.elsewhere TO svc_reader',
    );
    const other = await ok(w.h.call('GET', `/v1/authentications/${id}/tables?database=${DB}_other`));
    expect((other.tables as Json[]).map((t) => t.name)).toEqual(['elsewhere']);
    const otherSchema = await ok(
      w.h.call('GET', `/v1/authentications/${id}/tables/public/elsewhere?database=${DB}_other`),
    );
    expect((otherSchema.columns as Json[]).map((c) => c.name)).toEqual(['k']);
    const none = await w.h.call('GET', `/v1/authentications/${id}/schemas?database=no_such_db`);
    expect(none.status).toBe(400);
    expect(((await none.json()) as { message: string }).message).toMatch(/no database "no_such_db"/);
    const missing = await w.h.call('GET', `/v1/authentications/${id}/tables/public/nope`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toMatch(/"public\.nope" does not exist/);
  });

  it('runs a directly created session on demand and on its cron schedule in its time zone', async () => {
    await w.h.call('POST', '/v3/table/create/dwh_target/events_direct');
    const session = await ok(
      w.h.call('POST', '/v3/bulk_loads', {
        json: {
          name: 'events_direct',
          database: 'dwh_target',
          table: 'events_direct',
          cron: '30 9 * * *',
          timezone: 'Asia/Tokyo',
          config: {
            in: {
              type: 'postgresql',
              host: w.server.host,
              port: w.server.port,
              database: DB,
              user: w.creds.user,
              password: w.creds.password,
              ssl_mode: 'disable',
              schema: 'public',
              table: 'events',
            },
            out: { mode: 'replace' },
          },
        },
      }),
    );
    expect((session.config as { in: Json }).in.password).toBe('***');
    const job = await ok(w.h.call('POST', '/v3/bulk_loads/events_direct/jobs'));
    expect(job).toMatchObject({ type: 'bulkload', status: expect.stringMatching(/^(queued|running)$/) });
    expect(await w.h.app.services.jobs.whenSettled(job.job_id as number)).toBe('success');
    // The typed-in password is sealed in the session and absent from the job record.
    const stored = (await one<{ config_json: string }>(
      w.h.deps.storage.db,
      controlSql`SELECT config_json FROM bulk_loads WHERE name = 'events_direct'`,
    )) as { config_json: string };
    expect(stored.config_json).not.toContain(w.creds.password);
    const jobRow = (await one<{ params_json: string }>(
      w.h.deps.storage.db,
      controlSql`SELECT params_json FROM jobs WHERE id = ${job.job_id}`,
    )) as { params_json: string };
    expect(jobRow.params_json).not.toContain(w.creds.password);
    expect((await targetRows(w.h, 'events_direct')).map((r) => r.kind)).toEqual(['a', 'b']);
    expect((await w.h.call('POST', '/v3/bulk_loads/nope/jobs')).status).toBe(404);

    // The harness clock is 2026-11-22 09:00 UTC = 18:00 in Tokyo; 09:30 Tokyo is 00:30 UTC the next day.
    expect(await w.h.app.services.bulkLoads.tick()).toBe(0);
    w.h.clock.advance(15 * 60 * 60 * 1000);
    expect(await w.h.app.services.bulkLoads.tick()).toBe(0);
    w.h.clock.advance(31 * 60 * 1000);
    expect(await w.h.app.services.bulkLoads.tick()).toBe(1);
    expect(await w.h.app.services.bulkLoads.tick()).toBe(0);
    const jobs = (await (await w.h.call('GET', '/v3/bulk_loads/events_direct/jobs')).json()) as Json[];
    expect(jobs).toHaveLength(2);
    await w.h.app.services.jobs.whenSettled(jobs[0]?.job_id as number);
  });

  it('connects a typed-in PostgreSQL input with ssl_mode prefer by default, ssl: false too; ssl: true needs TLS', async () => {
    await w.h.call('POST', '/v3/table/create/dwh_target/events_nossl');
    const input = {
      type: 'postgresql',
      host: w.server.host,
      port: w.server.port,
      database: DB,
      user: w.creds.user,
      password: w.creds.password,
      schema: 'public',
      table: 'events',
    };
    const run = async (name: string, extra: Json) => {
      await ok(
        w.h.call('POST', '/v3/bulk_loads', {
          json: { name, database: 'dwh_target', table: 'events_nossl', config: { in: { ...input, ...extra } } },
        }),
      );
      const job = await ok(w.h.call('POST', `/v3/bulk_loads/${name}/jobs`));
      const status = await w.h.app.services.jobs.whenSettled(job.job_id as number);
      const shown = await ok(w.h.call('GET', `/v3/job/show/${job.job_id}`));
      return { status, error: (shown.debug as Json | undefined)?.stderr };
    };
    // The test server offers no TLS: "require" (ssl: true) fails saying so and loads nothing.
    const required = await run('tls_required', { ssl: true });
    expect(required.status).toBe('error');
    expect(required.error).toMatch(/does not offer TLS.*use "prefer"/);
    expect(await targetRows(w.h, 'events_nossl')).toEqual([]);
    // The default is libpq's "prefer": TLS when offered, else without; ssl: false never asks.
    expect((await run('tls_default', {})).status).toBe('success');
    expect((await run('tls_off', { ssl: false })).status).toBe('success');
    expect((await targetRows(w.h, 'events_nossl')).map((r) => r.kind)).toEqual(['a', 'b', 'a', 'b']);
  });

  it('lists the integrations of the current user; administrators list all with all=true and alone touch others’', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const integration = (name: string) => ({
      name,
      basic_configs: { svc_authentication_id: authId },
      advanced_configs: [
        {
          target_table: name.replace(/ /g, '_'),
          config: { schema: 'public', table: 'events', columns: [{ name: 'kind', type: 'string' }] },
        },
      ],
      output_config: { database: 'dwh_target' },
    });
    const BOB = 'bob@first.test';
    await ok(w.h.call('POST', '/v3/user/add/bob', { json: { email: BOB, password: 'Bob-password-1234' } }));
    const bob = ((await ok(w.h.call('POST', `/v3/user/apikey/add/${BOB}`))) as { apikey: string }).apikey;
    const mine = (await ok(w.h.call('POST', '/v1/dwh/', { json: integration('admin events') }))).dwh_id as number;
    const his = (await ok(w.h.call('POST', '/v1/dwh/', { key: bob, json: integration('bob events') })))
      .dwh_id as number;
    const ids = async (path: string, key?: string) =>
      ((await ok(w.h.call('GET', path, key ? { key } : {}))).items as Json[]).map((i) => i.id);

    expect(await ids('/v1/dwh/')).toEqual([mine]);
    expect(await ids('/v1/dwh')).toEqual([mine]);
    expect(await ids('/v1/dwh/', bob)).toEqual([his]);
    expect(await ids('/v1/dwh/?all=true')).toEqual([his, mine]);
    expect(await ids('/v1/dwh/?all=false')).toEqual([mine]);
    const everyone = await w.h.call('GET', '/v1/dwh/?all=true', { key: bob });
    expect(everyone.status).toBe(403);
    expect(((await everyone.json()) as { message: string }).message).toMatch(/Only an administrator.*all=true/);
    const bad = await w.h.call('GET', '/v1/dwh/?all=maybe');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/"all" must be true or false/);

    // Bob can read the admin's integration but not run, change or delete it.
    expect((await w.h.call('GET', `/v1/dwh/${mine}`, { key: bob })).status).toBe(200);
    for (const [method, path, json] of [
      ['PUT', `/v1/dwh/${mine}/run_workflow`, undefined],
      ['PUT', `/v1/dwh/${mine}`, { name: 'taken over' }],
      ['DELETE', `/v1/dwh/${mine}`, undefined],
    ] as const) {
      const res = await w.h.call(method, path, { key: bob, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      const body = (await res.json()) as Json;
      expect(body).toMatchObject({ error: 'Forbidden', severity: 'error', status_code: 403 });
      expect(body.message).toBe(
        `Integration ${mine} belongs to another user; only its creator or an administrator can ${method === 'DELETE' ? 'delete' : path.endsWith('run_workflow') ? 'run' : 'change'} it.`,
      );
    }
    expect((await ok(w.h.call('GET', `/v1/dwh/${mine}`))).name).toBe('admin events');
    // His own he changes; an administrator may change anyone's.
    expect((await ok(w.h.call('PUT', `/v1/dwh/${his}`, { key: bob, json: { name: 'bob renamed' } }))).name).toBe(
      'bob renamed',
    );
    expect((await ok(w.h.call('PUT', `/v1/dwh/${his}`, { json: { name: 'by admin' } }))).name).toBe('by admin');
  });

  it('creates integrations with checked configs and runs them on their schedule in their time zone', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const body = {
      name: 'events daily',
      schedule_type: 'daily',
      schedule_option: '10:00',
      timezone: 'Asia/Tokyo',
      basic_configs: { type: 'postgresql', svc_authentication_id: authId },
      advanced_configs: [
        {
          target_table: 'events_daily',
          config: { schema: 'public', table: 'events', columns: [{ name: 'kind', type: 'string' }] },
        },
      ],
      output_config: { database: 'dwh_target' },
    };
    const table = body.advanced_configs[0] as { target_table: string; config: { columns: Json[] } & Json };
    const cases: [unknown, number, RegExp][] = [
      [{ ...body, schedule_option: '25:00' }, 400, /HH:MM/],
      [{ ...body, timezone: 'Mars/Base' }, 400, /IANA time zone/],
      [{ ...body, output_config: { database: 'missing_db' } }, 400, /does not exist: create it first/],
      [{ ...body, advanced_configs: [] }, 400, /at least one table/],
      [{ ...body, advanced_configs: [{ ...body.advanced_configs[0], target_table: 'Bad-Name' }] }, 400, /target_table/],
      [{ ...body, basic_configs: { svc_authentication_id: 999 } }, 404, /Resource not found/],
      ...(['where', 'select', 'query', 'order_by', 'invalid_value_option', 'last_record'] as const).map(
        (field): [unknown, number, RegExp] => [
          { ...body, advanced_configs: [{ ...table, config: { ...table.config, [field]: ['x'] } }] },
          400,
          new RegExp(`"advanced_configs\\[0\\]\\.config\\.${field}" is not supported`),
        ],
      ),
      [{ ...body, filter_configs: [{ type: 'column', columns: [] }] }, 400, /"filter_configs\[0\]\.type" "column"/],
      [
        {
          ...body,
          output_config: { database: 'dwh_target', mode: 'replace' },
          advanced_configs: [{ ...table, config: { ...table.config, mode: 'append' } }],
        },
        400,
        /mode "append" but output_config\.mode is "replace"/,
      ],
      [
        { ...body, output_config: { database: 'dwh_target', time_column: 'nope' } },
        400,
        /time column "nope" \(from output_config\.time_column\)/,
      ],
    ];
    for (const [json, status, message] of cases) {
      const res = await w.h.call('POST', '/v1/dwh/', { json });
      expect(res.status, JSON.stringify(json).slice(0, 120)).toBe(status);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    // output_config.time_column is the time column of tables that name none.
    const timed = await ok(
      w.h.call('POST', '/v1/dwh/', {
        json: {
          ...body,
          name: 'timed',
          advanced_configs: [
            {
              target_table: 'events_timed',
              config: { ...table.config, columns: [...table.config.columns, { name: 'at', type: 'string' }] },
            },
          ],
          output_config: { database: 'dwh_target', time_column: 'at', mode: 'replace' },
        },
      }),
    );
    const timedSession = await ok(w.h.call('GET', `/v3/bulk_loads/dwh_${timed.dwh_id}_events_timed`));
    expect((timedSession.config as { out: Json }).out).toMatchObject({ time_column: 'at', mode: 'replace' });
    await ok(w.h.call('DELETE', `/v1/dwh/${timed.dwh_id}`));
    const { dwh_id } = await ok(w.h.call('POST', '/v1/dwh/', { json: body }));
    expect((await w.h.call('POST', '/v1/dwh/', { json: body })).status).toBe(409);
    const list = await ok(w.h.call('GET', '/v1/dwh'));
    expect(list.items).toEqual([
      expect.objectContaining({
        id: dwh_id,
        name: 'events daily',
        schedule_type: 'daily',
        schedule_option: '10:00',
        timezone: 'Asia/Tokyo',
      }),
    ]);
    expect((await ok(w.h.call('GET', '/v3/table/show/dwh_target/events_daily'))).name).toBe('events_daily');
    const sessions = (await (await w.h.call('GET', `/v1/dwh/${dwh_id}/bulkload_sessions`)).json()) as Json[];
    expect(sessions).toEqual([
      expect.objectContaining({ name: `dwh_${dwh_id}_events_daily`, target_table: 'events_daily' }),
    ]);

    // 09:00 UTC is 18:00 in Tokyo: the next 10:00 there is 01:00 UTC tomorrow.
    expect(await w.h.app.services.bulkLoads.tick()).toBe(0);
    w.h.clock.advance(16 * 60 * 60 * 1000 - 60_000);
    expect(await w.h.app.services.bulkLoads.tick()).toBe(0);
    w.h.clock.advance(60_000);
    expect(await w.h.app.services.bulkLoads.tick()).toBe(1);
    const attempts = await ok(w.h.call('GET', `/v1/dwh/${dwh_id}/session_attempts`));
    const [attempt] = attempts.items as Json[];
    expect(attempt).toMatchObject({ trigger: 'schedule' });
    for (const t of (attempt as Json).tables as Json[]) await w.h.app.services.jobs.whenSettled(t.job_id as number);
    expect((await targetRows(w.h, 'events_daily')).map((r) => r.kind)).toEqual(['a', 'b']);

    const other = await w.h.newAccount('Other');
    await ok(w.h.call('PUT', '/v1/dwh/feature', { key: other.masterKey, json: { enabled: true } }));
    expect((await w.h.call('GET', `/v1/dwh/${dwh_id}`, { key: other.masterKey })).status).toBe(404);
    expect((await w.h.call('PUT', `/v1/dwh/${dwh_id}/run_workflow`, { key: other.masterKey })).status).toBe(404);
    await ok(w.h.call('DELETE', `/v1/dwh/${dwh_id}`));
    expect((await w.h.call('GET', `/v3/bulk_loads/dwh_${dwh_id}_events_daily`)).status).toBe(404);
    expect(await targetRows(w.h, 'events_daily')).toHaveLength(2);
  });
});
