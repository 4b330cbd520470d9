import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres, sql as warehouse, warehouseDatabase } from '../dwh/testing/postgres';
import { many, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';

/**
 * `td connector:guess`, `connector:preview` and `connector:issue` (td-client-ruby bulk_load_guess, _preview,
 * _issue; td-client-python connector_guess, _preview, _issue) against a real PostgreSQL, with the bodies the
 * clients send: `{"config": {in, out, exec, filters}}` as JSON, and `database`/`table` beside it for issue.
 */

const DB = warehouseDatabase('clients_warehouse');
const ROWS = 250;
let server: TestPostgres;
let h: Harness;
type Json = Record<string, unknown>;

beforeAll(async () => {
  server = startTestPostgres();
  await warehouse(server, 'postgres', `DROP DATABASE IF EXISTS ${DB}`);
  await warehouse(server, 'postgres', `CREATE DATABASE ${DB}`);
  await warehouse(
    server,
    'postgres',
    // Roles belong to the whole server: the other pass may be creating it at this moment.
    `DO $$ BEGIN
      CREATE ROLE svc_clients_reader LOGIN PASSWORD 'clients-Pa55';
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
  );
  await warehouse(
    server,
    DB,
    `CREATE TABLE public.signups (id bigint PRIMARY KEY, "Customer Name" text, created_at timestamptz NOT NULL,
       "time" bigint, score numeric(6,2), avatar bytea);
     INSERT INTO public.signups SELECT g, 'customer ' || g, timestamptz '2026-03-01 00:00:00+00' + make_interval(mins => g),
       g * 10, g / 4.0, '\\x00'::bytea FROM generate_series(1, ${ROWS}) g;
     GRANT USAGE ON SCHEMA public TO svc_clients_reader;
     GRANT SELECT ON ALL TABLES IN SCHEMA public TO svc_clients_reader;`,
  );
}, 120_000);
afterAll(() => server?.stop());

beforeEach(async () => {
  h = await createHarness({ outbound: { allowPrivateAddresses: false, allowWarehouseLoopback: true } });
  await h.call('POST', '/v3/database/create/crm');
  await h.call('POST', '/v3/table/create/crm/signups/log');
});
afterEach(() => h.close());

const seed = (over: Json = {}) => ({
  config: {
    in: {
      type: 'postgresql',
      host: server.host,
      port: server.port,
      user: 'svc_clients_reader',
      password: 'clients-Pa55',
      database: DB,
      table: 'signups',
      ssl: false,
      ...over,
    },
    out: {},
    exec: { guess_plugins: [] },
    filters: [],
  },
});

async function ok(res: Response): Promise<Json> {
  const body = (await res.json()) as Json;
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(body)}`);
  return body;
}
async function refused(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  return ((await res.json()) as { message: string }).message;
}
const post = (path: string, json: unknown) => h.call('POST', path, { json });

describe('POST /v3/bulk_loads/guess', () => {
  it('completes the config: columns and types, the time column, renames, the credentials as sent', async () => {
    const { config } = (await ok(await post('/v3/bulk_loads/guess', seed()))) as { config: Json };
    const input = config.in as Json;
    expect(input).toMatchObject({ type: 'postgresql', password: 'clients-Pa55', schema: 'public', table: 'signups' });
    expect(input.columns).toEqual([
      { name: 'id', type: 'long' },
      { name: 'Customer Name', type: 'string' },
      { name: 'created_at', type: 'string' },
      { name: 'time', type: 'long' },
      { name: 'score', type: 'double' },
    ]);
    expect(config.out).toEqual({ mode: 'append', time_column: 'created_at' });
    expect(config.filters).toEqual([
      { type: 'rename', columns: { 'Customer Name': 'customer_name', time: 'source_time' } },
    ]);
    expect(config.exec).toEqual({ guess_plugins: [] });
  });

  it('accepts the config without the "config" wrapper, as td-client-python may send it', async () => {
    const { config } = (await ok(await post('/v3/bulk_loads/guess', seed().config))) as { config: Json };
    expect((config.in as Json).table).toBe('signups');
  });

  it('answers 400 naming what to fix', async () => {
    expect(await refused(await post('/v3/bulk_loads/guess', seed({ password: 'wrong' })), 400)).toMatch(
      /refused the login of user "svc_clients_reader"/,
    );
    expect(await refused(await post('/v3/bulk_loads/guess', seed({ table: 'nope' })), 400)).toMatch(
      /"public.nope" does not exist/,
    );
    expect(await refused(await post('/v3/bulk_loads/guess', seed({ type: 's3' })), 400)).toMatch(
      /"s3" is not a source this server reads; supported: postgresql/,
    );
    expect(await refused(await post('/v3/bulk_loads/guess', seed({ table: undefined })), 400)).toMatch(
      /config.in.table/,
    );
    expect(await refused(await post('/v3/bulk_loads/guess', seed({ where: 'id > 3' })), 400)).toMatch(
      /"config.in.where" is not supported/,
    );
    expect(await refused(await post('/v3/bulk_loads/guess', { name: 'x' }), 400)).toMatch(/no "config"/);
    expect((await h.call('POST', '/v3/bulk_loads/guess', { key: null, json: seed() })).status).toBe(401);
  });

  it('keeps the one outbound address policy: a loopback warehouse is refused unless allowed', async () => {
    const strict = await createHarness();
    try {
      const res = await strict.call('POST', '/v3/bulk_loads/guess', { json: seed() });
      expect(await refused(res, 400)).toMatch(/loopback|SVC_DWH_ALLOW_LOOPBACK/i);
    } finally {
      await strict.close();
    }
  });
});

describe('POST /v3/bulk_loads/preview', () => {
  it('shows the first rows as they would land: renamed columns, time last', async () => {
    const { config } = (await ok(await post('/v3/bulk_loads/guess', seed()))) as { config: Json };
    const preview = (await ok(await post('/v3/bulk_loads/preview', { config }))) as {
      schema: Json[];
      records: unknown[][];
    };
    expect(preview.schema).toEqual([
      { index: 0, name: 'id', type: 'long' },
      { index: 1, name: 'customer_name', type: 'string' },
      { index: 2, name: 'created_at', type: 'string' },
      { index: 3, name: 'source_time', type: 'long' },
      { index: 4, name: 'score', type: 'double' },
      { index: 5, name: 'time', type: 'long' },
    ]);
    expect(preview.records).toHaveLength(20);
    const first = preview.records.find((r) => r[0] === 1);
    expect(first).toEqual([1, 'customer 1', '2026-03-01 00:01:00+00', 10, 0.25, Date.UTC(2026, 2, 1, 0, 1) / 1000]);
    expect(await refused(await post('/v3/bulk_loads/preview', seed({ user: 'nobody_here' })), 400)).toMatch(
      /nobody_here/,
    );
  });
});

describe('POST /v3/job/issue/bulkload/:db (td connector:issue)', () => {
  const issue = (config: Json, table = 'signups', db = 'crm') =>
    post(`/v3/job/issue/bulkload/${db}`, { config, database: db, table });

  it('runs the config once into the table as a bulkload job, in no session, and keeps no credentials', async () => {
    const { config } = (await ok(await post('/v3/bulk_loads/guess', seed()))) as { config: Json };
    const issued = await ok(await issue(config));
    expect(issued).toEqual({ job: expect.any(String), job_id: issued.job, database: 'crm' });
    const id = Number(issued.job_id);
    expect(await h.app.services.jobs.whenSettled(id)).toBe('success');
    const job = await ok(await h.call('GET', `/v3/job/show/${id}`));
    expect(job).toMatchObject({ type: 'bulkload', status: 'success', num_records: ROWS, database: 'crm' });
    const tables = (await ok(await h.call('GET', '/v3/table/list/crm'))).tables as Json[];
    const signups = tables.find((t) => t.name === 'signups') as Json;
    expect(signups.count).toBe(ROWS);
    expect(JSON.parse(signups.schema as string)).toEqual(
      expect.arrayContaining([
        ['customer_name', 'string'],
        ['source_time', 'long'],
      ]),
    );
    const tail = await h.call('POST', '/v3/job/issue/presto/crm', {
      json: { query: 'SELECT min(time) AS t, count(*) AS n FROM signups' },
    });
    const query = Number((await ok(tail)).job_id);
    expect(await h.app.services.jobs.whenSettled(query)).toBe('success');
    const rows = await (await h.call('GET', `/v3/job/result/${query}?format=json`)).text();
    expect(JSON.parse(rows.trim())).toEqual([Date.UTC(2026, 2, 1, 0, 1) / 1000, ROWS]);
    expect(await ok(await h.call('GET', '/v3/bulk_loads'))).toEqual([]);
    const stored = await many<{ params_json: string }>(
      h.deps.storage.db,
      sql`SELECT params_json FROM jobs WHERE type = 'bulkload'`,
    );
    expect(stored).toHaveLength(1);
    for (const r of stored) {
      expect(r.params_json).not.toContain('clients-Pa55');
      expect(r.params_json).not.toContain('svc-enc:');
    }
  });

  it('a run that fails says why, and forgets the sealed credentials too', async () => {
    const issued = await ok(await issue(seed({ table: 'gone' }).config));
    const id = Number(issued.job_id);
    expect(await h.app.services.jobs.whenSettled(id)).toBe('error');
    const job = (await ok(await h.call('GET', `/v3/job/show/${id}`))) as { debug: { stderr: string } };
    expect(job.debug.stderr).toMatch(/"public.gone" does not exist/);
    const [row] = await many<{ params_json: string }>(h.deps.storage.db, sql`SELECT params_json FROM jobs`);
    expect(row?.params_json).not.toContain('svc-enc:');
    expect(JSON.parse(row?.params_json ?? '{}')).not.toHaveProperty('oneoff');
  });

  it('refuses bad input with 4xx before queuing anything', async () => {
    expect(await refused(await issue(seed().config, 'Bad-Name'), 400)).toMatch(/"table"/);
    expect((await issue(seed().config, 'missing_table')).status).toBe(404);
    expect((await issue(seed().config, 'signups', 'nodb')).status).toBe(404);
    expect(await refused(await issue(seed({ type: 'mysql' }).config), 400)).toMatch(/supported: postgresql/);
    expect(await refused(await post('/v3/job/issue/pig/crm', { query: 'x' }), 422)).toMatch(/bulkload/);
    expect(await many(h.deps.storage.db, sql`SELECT id FROM jobs`)).toEqual([]);
  });
});
