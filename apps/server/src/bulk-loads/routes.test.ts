import { join } from 'node:path';
import { bulkLoadJob } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertJob } from '../jobs';
import { one, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { schemaErrors } from '../testing/oasContract';
import { openCredentials } from './secrets';

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
          start_time: '2026-11-22T09:00:00Z',
        },
        out: { type: 'svc_internal', plazma_dataset: 'sales', mode: 'replace', time_column: 'created_at' },
        filters: [{ type: 'rename', columns: { a: 'b' } }],
        exec: { secret_prop: '***' },
      },
      config_diff: { in: { start_time: '2026-11-22T09:00:00Z' } },
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

  it('always shows config.exec as an object and out.time_column, also when add_time gives the time', async () => {
    const { time_column: _t, ...rest } = settings;
    const uploadTime = {
      ...rest,
      name: 'upload_time_pg',
      config: {
        in: { type: 'postgresql', host: 'pg.example.com' },
        filters: [{ type: 'add_time', to_column: { name: 'time' }, from_value: { mode: 'upload_time' } }],
      },
    };
    const res = await create(uploadTime);
    expect(res.status).toBe(200);
    const session = await body(res);
    expect(session.config).toMatchObject({
      exec: {},
      out: { type: 'svc_internal', plazma_dataset: 'sales', mode: 'append', time_column: 'time' },
      filters: uploadTime.config.filters,
    });
    expect(schemaErrors('BulkLoadSession', session)).toEqual([]);
    expect(await body(await h.call('GET', '/v3/bulk_loads/upload_time_pg'))).toEqual(session);
    // Our own API description promises both.
    const doc = await body(await h.call('GET', '/openapi.json'));
    const described = JSON.stringify((doc.paths as Json)['/v3/bulk_loads']);
    expect(described).toContain('"required":["type","plazma_dataset","mode","time_column"]');
    expect(described).toContain('"required":["in","exec","out"]');
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
    const job = await insertJob(
      h.deps.storage.db,
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
    await insertJob(
      h.deps.storage.db,
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
    await insertJob(
      h.deps.storage.db,
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
      plazma_dataset: 'sales',
      mode: 'append',
      time_column: 'created_at',
    });
    const row = (await one<{ config_json: string }>(
      h.deps.storage.db,
      sql`SELECT config_json FROM bulk_loads WHERE name = 'daily_pg'`,
    )) as { config_json: string };
    const stored = openCredentials(h.deps.config.secret, JSON.parse(row.config_json)) as { in: Json; exec: Json };
    expect(stored.in.password).toBe('pg-Pa55');
    expect((stored.in.auth as Json).api_token).toBe('tok-123');
    expect(stored.exec.secret_prop).toBe('exec-secret');
    // A new password replaces the old one.
    await h.call('PUT', '/v3/bulk_loads/daily_pg', {
      json: { config: { in: { type: 'postgresql', password: 'new-pw' } } },
    });
    const again = (await one<{ config_json: string }>(
      h.deps.storage.db,
      sql`SELECT config_json FROM bulk_loads WHERE name = 'daily_pg'`,
    )) as { config_json: string };
    expect(again.config_json).not.toContain('new-pw');
    const opened = openCredentials(h.deps.config.secret, JSON.parse(again.config_json)) as { in: Json };
    expect(opened.in).toEqual({ type: 'postgresql', password: 'new-pw' });
  });

  it('stores typed-in credentials sealed: the stored bytes hold none of them', async () => {
    await create();
    const row = (await one<{ config_json: string }>(
      h.deps.storage.db,
      sql`SELECT config_json FROM bulk_loads WHERE name = 'daily_pg'`,
    )) as { config_json: string };
    expect(row.config_json).not.toMatch(/pg-Pa55|tok-123|BEGIN KEY|exec-secret/);
    const stored = JSON.parse(row.config_json) as { in: Json };
    expect(stored.in.password).toMatch(/^svc-enc:v1:/);
    expect(stored.in.host).toBe('pg.example.com');
  });

  it('refuses reference options and filters it would otherwise ignore, naming them', async () => {
    const input = settings.config.in;
    const cases: [Json, RegExp][] = [
      [{ in: { ...input, where: 'id > 5' } }, /"config\.in\.where" is not supported/],
      [{ in: { ...input, query: 'select 1' } }, /"config\.in\.query" is not supported/],
      [{ in: { ...input, order_by: 'id' } }, /"config\.in\.order_by" is not supported/],
      [{ in: { ...input, select: 'id, name' } }, /"config\.in\.select" is not supported/],
      [{ in: { ...input, invalid_value_option: 'insert_null' } }, /"config\.in\.invalid_value_option"/],
      [{ in: { ...input, last_record: [5] } }, /"config\.in\.last_record" is not supported/],
      [{ in: input, filters: [{ type: 'column', add_columns: [] }] }, /"config\.filters\[0\]\.type" "column"/],
      [{ in: input, filters: [{ type: 'add_time', from_column: { name: 'x' } }] }, /add_time filter/],
    ];
    for (const [config, message] of cases) {
      const res = await create({ ...settings, config });
      expect(res.status, JSON.stringify(config).slice(0, 120)).toBe(400);
      expect((await body(res)).message).toMatch(message);
    }
    // The neutral values of those options mean "not used" and pass.
    expect(
      (await create({ ...settings, config: { in: { ...input, select: '*', use_custom_query: false } } })).status,
    ).toBe(200);
  });

  it('deletes a session and returns it', async () => {
    await create();
    const res = await h.call('DELETE', '/v3/bulk_loads/daily_pg');
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ name: 'daily_pg', config: { in: { password: '***' } } });
    expect((await h.call('GET', '/v3/bulk_loads/daily_pg')).status).toBe(404);
    expect((await h.call('DELETE', '/v3/bulk_loads/daily_pg')).status).toBe(404);
  });

  it("never reuses a deleted session's id, so a new session of the same name has none of its jobs", async () => {
    const first = (await body(await create())).id as number;
    await insertJob(
      h.deps.storage.db,
      {
        accountId: h.admin.accountId,
        userId: h.admin.userId,
        type: 'bulkload',
        database: 'sales',
        query: null,
        params: { bulk_load_id: first },
      },
      h.clock.now().getTime(),
    );
    expect(await body(await h.call('GET', '/v3/bulk_loads/daily_pg/jobs'))).toHaveLength(1);
    expect((await h.call('DELETE', '/v3/bulk_loads/daily_pg')).status).toBe(200);
    const second = (await body(await create())).id as number;
    expect(second).toBeGreaterThan(first);
    expect(await body(await h.call('GET', '/v3/bulk_loads/daily_pg/jobs'))).toEqual([]);
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
      [
        { ...settings, config: { ...settings.config, filters: [{ type: 'rename', columns: { a: 'v' } }] } },
        400,
        /"config\.filters\[0\]\.columns": "v" is not a valid column name/,
      ],
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

describe('landing a run', () => {
  it('refuses to commit when another run of the session landed while it was reading', async () => {
    const { landInWorker, landedState, StateChangedError } = await import('./land');
    const { StageWriter } = await import('./staging');
    const { requireDatabase, findTable, dataPlane } = await import('../data');
    await create();
    const { id, created_at } = (await one<{ id: number; created_at: number }>(
      h.deps.storage.db,
      sql`SELECT id, created_at FROM bulk_loads`,
    )) as { id: number; created_at: number };
    const database = await requireDatabase(h.deps.storage.db, h.admin.accountId, 'sales');
    const table = await findTable(h.deps.storage.db, h.admin.accountId, database.id, 'orders');
    if (!table) throw new Error('no table');
    const landing = (jobId: number, basedOnJobId: number | null) => {
      const stagePath = join(h.deps.config.dataDir, `stage-${jobId}`);
      const w = new StageWriter(stagePath);
      w.write([[jobId]]);
      w.close();
      return landInWorker(h.deps, {
        database,
        table,
        mode: 'append',
        mergeKeys: [],
        resync: false,
        schema: [['n', 'long']],
        hasTime: false,
        uploadTime: 1,
        stagePath,
        bulkLoadId: id,
        sessionCreatedAt: created_at,
        jobId,
        nextState: { last_record: [String(jobId)] },
        basedOnJobId,
      });
    };
    const count = async () => (await dataPlane(h.deps).rows(database, 'orders')).length;
    // Two runs both started from "no state": the first lands, the second must not.
    expect((await landing(1, null)).inserted).toBe(1);
    await expect(landing(2, null)).rejects.toThrow(StateChangedError);
    expect(await landedState(h.deps, database, { id, created_at })).toEqual({
      jobId: 1,
      state: { last_record: ['1'] },
    });
    // A run that started from the first one's state lands.
    expect((await landing(3, 1)).inserted).toBe(1);
    expect(await count()).toBe(2);
  });
});
