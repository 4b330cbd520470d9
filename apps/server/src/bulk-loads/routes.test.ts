import { bulkLoadJob } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertJob } from '../jobs/jobStore';
import { schemaErrors } from '../results/testing/oasContract';
import { createHarness, type Harness } from '../testing/harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.call('POST', '/v3/database/create/sales');
  await h.call('POST', '/v3/table/create/sales/orders/log');
});
afterEach(() => h.close());

type Json = Record<string, unknown>;
const body = async (res: Response) => (await res.json()) as Json;

const settings = {
  name: 'daily_pg',
  database: 'sales',
  table: 'orders',
  cron: '0 3 * * *',
  timezone: 'Asia/Tokyo',
  delay: 60,
  time_column: 'created_at',
  config: {
    in: {
      type: 'postgresql',
      host: 'pg.example.com',
      user: 'loader',
      password: 'pg-Pa55',
      ssh_private_key: '-----BEGIN KEY-----',
      auth: { api_token: 'tok-123', region: 'us' },
      incremental: true,
    },
    out: { mode: 'replace' },
    filters: [{ type: 'rename', columns: { a: 'b' } }],
    exec: { secret_prop: 'exec-secret' },
  },
};

const create = (json: unknown = settings) => h.call('POST', '/v3/bulk_loads', { json });

describe('bulk load sessions', () => {
  it('lists none at first: a JSON array, also with the .json suffix', async () => {
    for (const path of ['/v3/bulk_loads', '/v3/bulk_loads.json']) {
      const res = await h.call('GET', path);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    }
  });

  it('creates a session and shows it per the spec and the OpenAPI schema, credentials masked', async () => {
    const res = await create();
    expect(res.status).toBe(200);
    const session = await body(res);
    expect(session).toEqual({
      id: expect.any(Number),
      name: 'daily_pg',
      cron: '0 3 * * *',
      timezone: 'Asia/Tokyo',
      delay: 60,
      start_at: null,
      database: 'sales',
      table: 'orders',
      config: {
        in: {
          type: 'postgresql',
          host: 'pg.example.com',
          user: 'loader',
          password: '***',
          ssh_private_key: '***',
          auth: { api_token: '***', region: 'us' },
          incremental: true,
        },
        out: { type: 'svc_internal', mode: 'replace', time_column: 'created_at' },
        filters: [{ type: 'rename', columns: { a: 'b' } }],
        exec: { secret_prop: '***' },
      },
      config_diff: {},
    });
    expect(schemaErrors('BulkLoadSession', session)).toEqual([]);
    for (const path of ['/v3/bulk_loads/daily_pg', '/v3/bulk_loads/daily_pg.json']) {
      expect(await body(await h.call('GET', path))).toEqual(session);
    }
    const all = await h.call('GET', '/v3/bulk_loads');
    const text = await all.text();
    expect(text).not.toMatch(/pg-Pa55|tok-123|BEGIN KEY|exec-secret/);
    expect(JSON.parse(text)).toEqual([session]);
    // The schema is live: an unknown top-level key does not pass (additionalProperties: false).
    expect(schemaErrors('BulkLoadSession', { ...session, extra: 1 })).not.toEqual([]);
  });

  it('answers the spec 404 body for an unknown name, on the session and on its jobs', async () => {
    for (const path of ['/v3/bulk_loads/nope', '/v3/bulk_loads/nope.json', '/v3/bulk_loads/nope/jobs']) {
      const res = await h.call('GET', path);
      expect(res.status, path).toBe(404);
      const err = await body(res);
      expect(err).toEqual({
        error: 'Resource not found',
        message: 'Resource not found',
        text: 'Resource not found',
        severity: 'error',
        status_code: 404,
      });
      expect(schemaErrors('ErrorResponse', err)).toEqual([]);
    }
  });

  it('lists only the jobs the session really ran, in the spec shape with Unix-second times', async () => {
    const { id } = await body(await create());
    expect(await body(await h.call('GET', '/v3/bulk_loads/daily_pg/jobs'))).toEqual([]);
    const now = h.clock.now().getTime();
    const job = insertJob(
      h.deps.db,
      {
        accountId: h.admin.accountId,
        userId: h.admin.userId,
        type: 'bulkload',
        database: 'sales',
        query: null,
        params: {
          bulk_load_id: id,
          database: { id: 1, name: 'sales' },
          table: { id: 1, name: 'orders' },
          config: { embulk_config: { in: { type: 'postgresql', password: 'pg-Pa55' } }, config_diff: {} },
          schema: [['id', 'long', 'id']],
        },
      },
      now,
    );
    // A job of another session and a query job are not this session's.
    insertJob(
      h.deps.db,
      {
        accountId: h.admin.accountId,
        userId: h.admin.userId,
        type: 'bulkload',
        database: 'sales',
        query: null,
        params: { bulk_load_id: 999 },
      },
      now,
    );
    insertJob(
      h.deps.db,
      { accountId: h.admin.accountId, userId: h.admin.userId, type: 'presto', database: 'sales', query: 'select 1' },
      now,
    );
    for (const path of ['/v3/bulk_loads/daily_pg/jobs', '/v3/bulk_loads/daily_pg/jobs.json']) {
      const jobs = (await (await h.call('GET', path)).json()) as Json[];
      // The spec's shape (records an integer, schema an array of triples, where the OAS differs).
      expect(() => z.array(bulkLoadJob).parse(jobs)).not.toThrow();
      expect(jobs).toEqual([
        {
          job_id: job.id,
          account_id: h.admin.accountId,
          type: 'bulkload',
          status: 'queued',
          records: null,
          schema: [['id', 'long', 'id']],
          database: { id: 1, name: 'sales' },
          table: { id: 1, name: 'orders' },
          config: { embulk_config: { in: { type: 'postgresql', password: '***' } }, config_diff: {} },
          priority: 0,
          cpu_time: null,
          created_at: Math.floor(now / 1000),
          updated_at: Math.floor(now / 1000),
          start_at: null,
          end_at: null,
        },
      ]);
    }
  });

  it('updates settings and keeps stored credentials when the masked value is sent back', async () => {
    const created = await body(await create());
    const res = await h.call('PUT', '/v3/bulk_loads/daily_pg', {
      json: { cron: '@hourly', config: { ...(created.config as Json), out: { mode: 'append' } } },
    });
    expect(res.status).toBe(200);
    const updated = await body(res);
    expect(updated).toMatchObject({ cron: '@hourly', timezone: 'Asia/Tokyo', delay: 60 });
    expect((updated.config as { out: Json }).out).toEqual({
      type: 'svc_internal',
      mode: 'append',
      time_column: 'created_at',
    });
    const row = h.deps.db.prepare("SELECT config_json FROM bulk_loads WHERE name = 'daily_pg'").get() as {
      config_json: string;
    };
    const stored = JSON.parse(row.config_json) as { in: Json; exec: Json };
    expect(stored.in.password).toBe('pg-Pa55');
    expect((stored.in.auth as Json).api_token).toBe('tok-123');
    expect(stored.exec.secret_prop).toBe('exec-secret');
    // A new password replaces the old one.
    await h.call('PUT', '/v3/bulk_loads/daily_pg', {
      json: { config: { in: { type: 'postgresql', password: 'new-pw' } } },
    });
    const again = h.deps.db.prepare("SELECT config_json FROM bulk_loads WHERE name = 'daily_pg'").get() as {
      config_json: string;
    };
    expect((JSON.parse(again.config_json) as { in: Json }).in).toEqual({ type: 'postgresql', password: 'new-pw' });
  });

  it('deletes a session and returns it', async () => {
    await create();
    const res = await h.call('DELETE', '/v3/bulk_loads/daily_pg');
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ name: 'daily_pg', config: { in: { password: '***' } } });
    expect((await h.call('GET', '/v3/bulk_loads/daily_pg')).status).toBe(404);
    expect((await h.call('DELETE', '/v3/bulk_loads/daily_pg')).status).toBe(404);
  });

  it('refuses invalid settings with a message naming the problem', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ ...settings, config: { in: {} } }, 400, /config\.in\.type/],
      [{ ...settings, config: { in: { type: 's3' }, out: { mode: 'merge' } } }, 400, /"append" or "replace"/],
      [{ ...settings, cron: '61 * * * *' }, 400, /not a valid schedule.*minute/],
      [{ ...settings, cron: '* * * *' }, 400, /five fields/],
      [{ ...settings, cron: '0 0 31 2 *' }, 400, /never fires/],
      [{ ...settings, timezone: 'Mars/Base' }, 400, /IANA time zone/],
      [{ ...settings, delay: -1 }, 400, /delay/],
      [{ ...settings, name: "bad'name" }, 400, /letters, digits/],
      [{ ...settings, name: 'x'.repeat(300) }, 400, /255/],
      [{ ...settings, database: 'Bad-Name' }, 400, /"database" must be/],
      [{ ...settings, database: 'missing_db' }, 404, /Resource not found/],
      [{ ...settings, table: 'missing_table' }, 404, /Resource not found/],
    ];
    for (const [json, status, message] of cases) {
      const res = await create(json);
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(status);
      expect((await body(res)).message).toMatch(message);
    }
    expect(await (await h.call('GET', '/v3/bulk_loads')).json()).toEqual([]);
  });

  it('refuses a second session of the same name with 409', async () => {
    await create();
    const res = await create();
    expect(res.status).toBe(409);
  });

  it("keeps each account's sessions to itself and refuses write-only keys", async () => {
    await create();
    const other = await h.newAccount('Other');
    expect(await (await h.call('GET', '/v3/bulk_loads', { key: other.masterKey })).json()).toEqual([]);
    expect((await h.call('GET', '/v3/bulk_loads/daily_pg', { key: other.masterKey })).status).toBe(404);
    expect((await h.call('DELETE', '/v3/bulk_loads/daily_pg', { key: other.masterKey })).status).toBe(404);
    expect((await h.call('GET', '/v3/bulk_loads', { key: h.admin.writeOnlyKey })).status).toBe(403);
  });
});
