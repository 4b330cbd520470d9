import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addAuthentication, type Json, ok, runAndWait, targetRows, warehouseSuite } from './testing/fixture';
import { sql } from './testing/postgres';

const w = warehouseSuite('warehouse_sync');
const DB = w.database;

async function guessOrders(authId: number): Promise<Json> {
  return ok(
    w.h.call('POST', '/v1/guess', { json: { svc_authentication_id: authId, schema: 'public', tables: ['orders'] } }),
  );
}

async function createIntegration(authId: number, tweak: (cfg: Json) => void = () => {}): Promise<number> {
  const guessed = await guessOrders(authId);
  const advanced = guessed.advanced_configs as Json[];
  for (const a of advanced) tweak(a.config as Json);
  const created = await ok(
    w.h.call('POST', '/v1/dwh/', {
      json: {
        name: `orders sync ${Math.random().toString(36).slice(2, 7)}`,
        schedule_type: 'none',
        timezone: 'UTC',
        basic_configs: guessed.basic_configs,
        advanced_configs: advanced,
        output_config: { database: 'dwh_target' },
      },
    }),
  );
  return created.dwh_id as number;
}

const md5 = (values: unknown[]) =>
  createHash('md5')
    .update(values.map((v) => (v === null ? 'NULL' : String(v))).join('\n'))
    .digest('hex');
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Per-column facts over every source row, computed by PostgreSQL (text digests in id order). */
async function warehouseAggregates(): Promise<Json> {
  const r = await sql(
    w.server,
    DB,
    `SELECT count(*) AS n, sum(id) AS id_sum, min(id) AS id_min, max(id) AS id_max,
       count(*) FILTER (WHERE qty IS NULL) AS qty_nulls, sum(qty) AS qty_sum, min(qty) AS qty_min, max(qty) AS qty_max,
       count(*) FILTER (WHERE price IS NULL) AS price_nulls, sum(price) AS price_sum, min(price) AS price_min,
       max(price) AS price_max, count(*) FILTER (WHERE ratio IS NULL) AS ratio_nulls, sum(ratio) AS ratio_sum,
       min(ratio) AS ratio_min, max(ratio) AS ratio_max, sum(CASE WHEN paid THEN 1 ELSE 0 END) AS paid_sum,
       count(*) FILTER (WHERE payload IS NULL) AS payload_nulls,
       md5(string_agg("Customer Name", E'\n' ORDER BY id)) AS name_md5,
       md5(string_agg(to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || '+00', E'\n' ORDER BY id)) AS created_md5,
       md5(string_agg(coalesce(updated_at::text, 'NULL'), E'\n' ORDER BY id)) AS updated_md5,
       md5(string_agg(coalesce(payload::text, 'NULL'), E'\n' ORDER BY id)) AS payload_md5,
       md5(string_agg(coalesce(array_to_json(tags)::text, 'NULL'), E'\n' ORDER BY id)) AS tags_md5,
       md5(string_agg((extract(epoch FROM created_at)::bigint)::text, E'\n' ORDER BY id)) AS time_md5
     FROM public.orders WHERE id <= 100000`,
  );
  const a = r.rows[0] as Record<string, string>;
  const out: Json = {};
  for (const [k, v] of Object.entries(a)) out[k] = k.endsWith('_md5') ? v : num(v);
  return round(out);
}

/** The same facts over the loaded SQLite rows. */
function loadedAggregates(rows: Json[]): Json {
  const col = (name: string) => rows.map((r) => r[name] as number | string | null);
  const nums = (name: string) => col(name).filter((v): v is number => v !== null);
  const facts = (name: string) => {
    const v = nums(name);
    return {
      [`${name}_sum`]: v.reduce((a, b) => a + b, 0),
      [`${name}_min`]: Math.min(...v),
      [`${name}_max`]: Math.max(...v),
    };
  };
  const nulls = (name: string) => col(name).filter((v) => v === null).length;
  return round({
    n: rows.length,
    ...facts('id'),
    qty_nulls: nulls('qty'),
    ...facts('qty'),
    price_nulls: nulls('price'),
    ...facts('price'),
    ratio_nulls: nulls('ratio'),
    ...facts('ratio'),
    paid_sum: nums('paid').reduce((a, b) => a + b, 0),
    payload_nulls: nulls('payload'),
    name_md5: md5(col('customer_name')),
    created_md5: md5(col('created_at')),
    updated_md5: md5(col('updated_at')),
    payload_md5: md5(col('payload')),
    tags_md5: md5(col('tags')),
    time_md5: md5(col('time')),
  });
}

/** Sums of doubles differ in the last bits with the order of addition: compare them to 6 decimals. */
function round(facts: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(facts)) out[k] = typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v;
  return out;
}

describe('data-warehouse sync against a real PostgreSQL', () => {
  it('guesses mapped types, skips what cannot be mapped, and proposes incremental and time columns', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const g = await guessOrders(authId);
    expect(g.basic_configs).toMatchObject({
      type: 'postgresql',
      svc_authentication_id: authId,
      database: DB,
      schema: 'public',
    });
    const [orders] = g.advanced_configs as Json[];
    expect(orders?.target_table).toBe('orders');
    const config = orders?.config as Json;
    const types = Object.fromEntries((config.columns as Json[]).map((c) => [c.name, c.type]));
    expect(types).toEqual({
      id: 'long',
      qty: 'long',
      price: 'double',
      ratio: 'double',
      'Customer Name': 'string',
      created_at: 'string',
      updated_at: 'string',
      payload: 'string',
      paid: 'long',
      tags: 'string',
    });
    expect(g.basic_configs).toMatchObject({ target_database: DB });
    expect(orders?.schedule).toEqual({ schedule_type: 'daily', schedule_option: '00:00' });
    expect(config.skipped).toEqual([{ column: 'blob', source_type: 'bytea', reason: expect.stringMatching(/binary/) }]);
    expect(config).toMatchObject({
      mode: 'append',
      incremental: true,
      incremental_columns: ['updated_at'],
      time_column: 'created_at',
      primary_key: ['id'],
    });
  });

  it('loads 100,000 rows with matching values, then incrementally: boundary rows neither lost nor doubled', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const dwhId = await createIntegration(authId);
    const attempt = await runAndWait(w.h, dwhId);
    expect(attempt).toMatchObject({ status: 'success', done: true });
    expect(attempt.tables).toEqual([
      expect.objectContaining({ target_table: 'orders', status: 'success', records: 100000, error: null }),
    ]);

    const rows = await targetRows(w.h, 'orders', 'id');
    expect(rows).toHaveLength(100000);
    const r7 = rows[6] as Json;
    expect(r7).toMatchObject({
      id: 7,
      qty: null,
      price: 0.32,
      ratio: 0.875,
      customer_name: 'customer 7',
      paid: 0,
      tags: '[7,8]',
    });
    expect(r7.time).toBe(Date.UTC(2026, 0, 1) / 1000 + 7);
    expect(r7.created_at).toBe('2026-01-01 00:00:07+00');
    expect(r7.updated_at).toBe('2026-01-01 00:00:00');
    expect(JSON.parse(rows[0]?.payload as string)).toEqual({ g: 1, even: false });
    expect(rows[4]?.payload).toBeNull();
    expect(rows[10]?.ratio).toBeNull();
    expect(Object.keys(r7)).not.toContain('blob');
    const table = await ok(w.h.call('GET', '/v3/table/show/dwh_target/orders'));
    expect(table.count).toBe(100000);
    expect(loadedAggregates(rows)).toEqual(await warehouseAggregates());

    // The session is a bulk load session; its job has the spec's fields.
    const [session] =
      ((await ok(w.h.call('GET', `/v1/dwh/${dwhId}/bulkload_sessions`)).valueOf()) as unknown as Json[]) ?? [];
    const name = (session as Json).name as string;
    const wire = await ok(w.h.call('GET', `/v3/bulk_loads/${name}`));
    expect(wire).toMatchObject({
      database: 'dwh_target',
      table: 'orders',
      config: {
        in: {
          type: 'postgresql',
          host: w.server.host,
          user: 'svc_reader',
          password: '***',
          incremental: true,
          incremental_columns: ['updated_at'],
        },
        out: { type: 'svc_internal', mode: 'append', time_column: 'created_at' },
        filters: [{ type: 'rename', columns: { 'Customer Name': 'customer_name' } }],
      },
      config_diff: { in: { incremental_column: 'updated_at', last_record: ['2026-01-01 02:46:40'] } },
    });
    const all = await w.h.call('GET', '/v3/bulk_loads');
    const allText = await all.text();
    expect(allText).not.toContain(w.creds.password);
    // Boundary digests stay inside; reads show how many rows share the last value.
    expect(allText).not.toContain('boundary_digests');
    expect((wire.config_diff as { in: Json }).in.boundary_rows).toBe(1);
    const jobs = (await (await w.h.call('GET', `/v3/bulk_loads/${name}/jobs`)).json()) as Json[];
    expect(jobs[0]).toMatchObject({
      type: 'bulkload',
      status: 'success',
      records: 100000,
      database: { name: 'dwh_target' },
      table: { name: 'orders' },
      config: { embulk_config: { in: { password: '***' } }, config_diff: { exec: { transaction_time_zone: 'UTC' } } },
    });
    expect(jobs[0]?.schema).toContainEqual(['customer_name', 'string', 'Customer Name']);

    // Rows at the last cursor value arrive after the run, plus newer ones; and an unchanged run loads nothing.
    await sql(
      w.server,
      DB,
      `INSERT INTO public.orders (id, qty, created_at, updated_at) VALUES
      (100001, 1, now(), timestamp '2026-01-01 02:46:40'), (100002, 2, now(), timestamp '2026-01-01 02:46:40'),
      (100003, 3, now(), timestamp '2026-03-01 00:00:00')`,
    );
    const second = await runAndWait(w.h, dwhId);
    expect((second.tables as Json[])[0]).toMatchObject({ status: 'success', records: 3 });
    const third = await runAndWait(w.h, dwhId);
    expect((third.tables as Json[])[0]).toMatchObject({ status: 'success', records: 0 });
    const ids = (await targetRows(w.h, 'orders', 'id')).map((r) => r.id as number);
    expect(ids).toHaveLength(100003);
    expect(new Set(ids).size).toBe(100003);
    await sql(w.server, DB, 'DELETE FROM public.orders WHERE id > 100000');
  }, 120_000);

  it('replace mode swaps the whole table; a failing run leaves it unchanged', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const dwhId = await createIntegration(authId, (cfg) => {
      cfg.mode = 'replace';
      cfg.incremental = false;
      cfg.table = 'events';
      cfg.columns = [
        { name: 'kind', type: 'string' },
        { name: 'n', type: 'long' },
      ];
      cfg.time_column = null;
    });
    const first = await runAndWait(w.h, dwhId);
    expect((first.tables as Json[])[0]).toMatchObject({ status: 'success', records: 2 });
    await sql(w.server, DB, "INSERT INTO public.events VALUES ('c', now(), 3)");
    await runAndWait(w.h, dwhId);
    expect((await targetRows(w.h, 'orders', 'n')).map((r) => r.kind)).toEqual(['a', 'b', 'c']);
    await sql(w.server, DB, "DELETE FROM public.events WHERE kind = 'c'");
    await runAndWait(w.h, dwhId);
    expect((await targetRows(w.h, 'orders', 'n')).map((r) => r.kind)).toEqual(['a', 'b']);

    // Dropped source table: a clear error, and the target keeps its rows.
    await sql(w.server, DB, 'ALTER TABLE public.events RENAME TO events_gone');
    try {
      const failed = await runAndWait(w.h, dwhId);
      expect(failed.status).toBe('error');
      expect((failed.tables as Json[])[0]?.error).toMatch(
        /"public\.events" does not exist \(was it dropped or renamed\?\)/,
      );
      expect((await targetRows(w.h, 'orders', 'n')).map((r) => r.kind)).toEqual(['a', 'b']);
    } finally {
      await sql(w.server, DB, 'ALTER TABLE public.events_gone RENAME TO events');
    }
  }, 60_000);

  it('a wrong password and an unreachable host give clear errors and leave the target unchanged', async () => {
    const good = await addAuthentication(w.h, w.server, DB, w.creds);
    const dwhId = await createIntegration(good, (cfg) => {
      cfg.table = 'events';
      cfg.columns = [{ name: 'kind', type: 'string' }];
      cfg.incremental = false;
      cfg.time_column = null;
    });
    await runAndWait(w.h, dwhId);
    const before = await targetRows(w.h, 'orders');

    const wrong = await addAuthentication(w.h, w.server, DB, { user: w.creds.user, password: 'not-it' }, 'wrong');
    const test = await ok(w.h.call('POST', `/v1/authentications/${wrong}/test`));
    expect(test).toMatchObject({
      ok: false,
      message: expect.stringMatching(/refused the login of user "svc_reader".*password/),
    });
    const guessed = await w.h.call('POST', '/v1/guess', { json: { svc_authentication_id: wrong, tables: ['events'] } });
    expect(guessed.status).toBe(400);
    expect(((await guessed.json()) as { message: string }).message).toMatch(/check the user name and password/);

    const configs = await ok(w.h.call('GET', `/v1/dwh/${dwhId}/configs`));
    await ok(
      w.h.call('PUT', `/v1/dwh/${dwhId}`, {
        json: { basic_configs: { ...(configs.basic_configs as Json), svc_authentication_id: wrong } },
      }),
    );
    const failed = await runAndWait(w.h, dwhId);
    expect(failed.status).toBe('error');
    expect((failed.tables as Json[])[0]?.error).toMatch(/check the user name and password/);
    expect(await targetRows(w.h, 'orders')).toEqual(before);

    const closedPort = await ok(
      w.h.call('POST', '/v1/authentications', {
        json: {
          name: 'nowhere',
          host: '127.0.0.1',
          port: 1,
          database: DB,
          user: 'x',
          password: 'y',
          ssl_mode: 'disable',
        },
      }),
    );
    await ok(
      w.h.call('PUT', `/v1/dwh/${dwhId}`, {
        json: { basic_configs: { ...(configs.basic_configs as Json), svc_authentication_id: closedPort.id } },
      }),
    );
    const unreachable = await runAndWait(w.h, dwhId);
    expect((unreachable.tables as Json[])[0]?.error).toMatch(
      /Could not connect to 127\.0\.0\.1:1: the connection was refused/,
    );
    expect(await targetRows(w.h, 'orders')).toEqual(before);
    const t = await ok(w.h.call('POST', `/v1/authentications/${closedPort.id}/test`));
    expect(t.ok).toBe(false);
    const inUse = await w.h.call('DELETE', `/v1/authentications/${closedPort.id}`);
    expect(inUse.status).toBe(409);
    expect(((await inUse.json()) as { message: string }).message).toMatch(/used by the integration/);
  }, 60_000);
});
