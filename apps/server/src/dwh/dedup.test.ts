import { describe, expect, it } from 'vitest';
import { addAuthentication, type Json, ok, runAndWait, targetRows, warehouseSuite } from './testing/fixture';
import { sql } from './testing/postgres';

/**
 * Merge mode (incremental append + dedup by key) against a real PostgreSQL warehouse, on the backend under
 * test: after updates, inserts and deletes in the warehouse the target holds exactly one row per key with
 * the newest values, compared row by row and column by column with the source.
 */

const w = warehouseSuite('warehouse_dedup', {
  seed: async () => {
    await sql(
      w.server,
      DB,
      `CREATE TABLE public.readings (reading_id integer PRIMARY KEY, device text NOT NULL, value integer,
         seen_at timestamp NOT NULL);
       CREATE TABLE public.people (id integer PRIMARY KEY, name text, updated_at timestamp NOT NULL);
       INSERT INTO public.people SELECT g, 'person ' || g, timestamp '2026-01-01' + make_interval(mins => g)
         FROM generate_series(1, 100) g;
       GRANT SELECT ON ALL TABLES IN SCHEMA public TO svc_reader;`,
    );
  },
});
const DB = w.database;

async function createMerged(authId: number, table: string, tweak: (cfg: Json) => void = () => {}): Promise<number> {
  const guessed = await ok(
    w.h.call('POST', '/v1/guess', { json: { svc_authentication_id: authId, schema: 'public', tables: [table] } }),
  );
  const advanced = guessed.advanced_configs as Json[];
  for (const a of advanced) {
    (a.config as Json).mode = 'merge';
    tweak(a.config as Json);
  }
  const created = await ok(
    w.h.call('POST', '/v1/dwh/', {
      json: {
        name: `${table} merged ${Math.random().toString(36).slice(2, 7)}`,
        basic_configs: guessed.basic_configs,
        advanced_configs: advanced,
        output_config: { database: 'dwh_target' },
      },
    }),
  );
  return created.dwh_id as number;
}

/**
 * Every source row of `orders` as the target must hold it, written here by hand from the type mapping
 * (README "Type mapping"), not by the sync's own conversion code: keyed by id.
 */
async function expectedOrders(): Promise<Map<number, Json>> {
  const r = await sql(
    w.server,
    DB,
    `SELECT id::text, qty::text, price::text, ratio::text, "Customer Name" AS customer_name,
       (created_at AT TIME ZONE 'UTC')::text || '+00' AS created_at, updated_at::text, payload::text,
       (CASE WHEN paid THEN 1 ELSE 0 END)::text AS paid, array_to_json(tags)::text AS tags,
       floor(extract(epoch FROM created_at))::bigint::text AS time
     FROM public.orders ORDER BY id`,
  );
  const num = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  const out = new Map<number, Json>();
  for (const row of r.rows as Record<string, string | null>[]) {
    out.set(Number(row.id), {
      time: num(row.time),
      id: num(row.id),
      qty: num(row.qty),
      price: num(row.price),
      ratio: num(row.ratio),
      customer_name: row.customer_name,
      created_at: row.created_at,
      updated_at: row.updated_at,
      payload: row.payload,
      paid: num(row.paid),
      tags: row.tags,
    });
  }
  return out;
}

/** The target's rows keyed by id, failing on a key seen twice. */
function byKey(rows: Json[], key = 'id'): Map<unknown, Json> {
  const out = new Map<unknown, Json>();
  for (const row of rows) {
    if (out.has(row[key])) throw new Error(`key ${String(row[key])} is in the target twice`);
    out.set(row[key], row);
  }
  return out;
}

describe('merge mode: incremental append + dedup by key', () => {
  it('after updates, inserts and deletes holds one row per key with the newest values, equal to the source row by row', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const dwhId = await createMerged(authId, 'orders');
    const configs = await ok(w.h.call('GET', `/v1/dwh/${dwhId}/configs`));
    // The key is guessed from the source's primary key.
    expect((configs.advanced_configs as Json[])[0]?.config).toMatchObject({
      mode: 'merge',
      merge_keys: ['id'],
      incremental_columns: ['updated_at'],
    });
    const first = await runAndWait(w.h, dwhId);
    expect((first.tables as Json[])[0]).toMatchObject({ status: 'success', records: 100000 });

    await sql(
      w.server,
      DB,
      `UPDATE public.orders SET qty = CASE WHEN qty IS NULL THEN 5 ELSE NULL END, price = price + 1,
           "Customer Name" = 'renamed ' || id, payload = jsonb_build_object('v', 2), paid = NOT paid,
           tags = ARRAY[id, 0, id], updated_at = timestamp '2026-02-01' + make_interval(secs => id / 1000.0)
         WHERE id % 100 = 0;
         UPDATE public.orders SET "Customer Name" = 'at the last value',
           updated_at = timestamp '2026-01-01 02:46:40' WHERE id = 5;
         INSERT INTO public.orders (id, qty, price, ratio, "Customer Name", created_at, updated_at, payload, paid, tags)
           SELECT g, g % 3, 1.25, g / 4.0, 'new ' || g, timestamptz '2026-03-01 00:00:00.5+00' + make_interval(secs => g),
             timestamp '2026-03-01' + make_interval(secs => g), '{"new": true}', true, ARRAY[g]
           FROM generate_series(100001, 100500) g;
         DELETE FROM public.orders WHERE id BETWEEN 200 AND 249;`,
    );
    const second = await runAndWait(w.h, dwhId);
    // 999 updated rows (the 1,000th was deleted), one updated to exactly the last cursor value, 500 new ones.
    expect((second.tables as Json[])[0]).toMatchObject({ status: 'success', records: 1500 });

    const rows = byKey(await targetRows(w.h, 'orders'));
    const expected = await expectedOrders();
    // Deletes are not propagated: the 50 deleted rows stay; every other row is exactly the source's.
    expect(rows.size).toBe(expected.size + 50);
    let compared = 0;
    for (const [id, want] of expected) {
      expect(rows.get(id), `row ${id}`).toEqual(want);
      compared++;
    }
    expect(compared).toBe(100450);
    for (let id = 200; id <= 249; id++) expect(rows.get(id)?.id).toBe(id);
    expect(rows.get(5)?.customer_name).toBe('at the last value');
    expect(rows.get(300)?.customer_name).toBe('renamed 300');
    expect((await ok(w.h.call('GET', '/v3/table/show/dwh_target/orders'))).count).toBe(100500);

    // Nothing changed: nothing is read, and the table stays as it is.
    const third = await runAndWait(w.h, dwhId);
    expect((third.tables as Json[])[0]).toMatchObject({ status: 'success', records: 0 });
    expect((await targetRows(w.h, 'orders')).length).toBe(100500);
  }, 180_000);

  it('keeps the newest row of a key by the incremental column when the key is not unique in the source', async () => {
    await sql(
      w.server,
      DB,
      `TRUNCATE public.readings;
       INSERT INTO public.readings VALUES
         (1, 'a', 30, '2026-01-03'), (2, 'b', 20, '2026-01-02'), (3, 'a', 10, '2026-01-01'),
         (4, 'b', 21, '2026-01-04'), (5, 'c', 5, '2026-01-01'), (6, 'a', 29, '2026-01-02');`,
    );
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const dwhId = await createMerged(authId, 'readings', (cfg) => {
      cfg.merge_keys = ['device'];
      cfg.incremental_columns = ['seen_at'];
      cfg.incremental = true;
      cfg.time_column = null;
    });
    await runAndWait(w.h, dwhId);
    const pick = async () =>
      [...byKey(await targetRows(w.h, 'readings'), 'device').values()]
        .map((r) => [r.device, r.value])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(await pick()).toEqual([
      ['a', 30],
      ['b', 21],
      ['c', 5],
    ]);
    await sql(
      w.server,
      DB,
      `INSERT INTO public.readings VALUES (7, 'c', 7, '2026-01-05'), (8, 'c', 6, '2026-01-04'), (9, 'd', 1, '2026-01-05')`,
    );
    await runAndWait(w.h, dwhId);
    expect(await pick()).toEqual([
      ['a', 30],
      ['b', 21],
      ['c', 7],
      ['d', 1],
    ]);
  }, 60_000);

  it('a change to merge mode re-syncs the table from scratch; a re-sync drops the rows deleted in the source', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const dwhId = await createMerged(authId, 'people', (cfg) => {
      cfg.mode = 'append';
    });
    await runAndWait(w.h, dwhId);
    try {
      await sql(
        w.server,
        DB,
        "UPDATE public.people SET name = 'changed ' || id, updated_at = updated_at + interval '1 day' WHERE id <= 10",
      );
      // Append mode adds the updated rows again: the duplication merge mode is for.
      await runAndWait(w.h, dwhId);
      expect(await targetRows(w.h, 'people')).toHaveLength(110);

      const configs = await ok(w.h.call('GET', `/v1/dwh/${dwhId}/configs`));
      const advanced = (configs.advanced_configs as Json[]).map((a) => ({
        ...a,
        config: { ...(a.config as Json), mode: 'merge' },
      }));
      await ok(w.h.call('PUT', `/v1/dwh/${dwhId}`, { json: { advanced_configs: advanced } }));
      const resynced = await runAndWait(w.h, dwhId);
      expect((resynced.tables as Json[])[0]).toMatchObject({ status: 'success', records: 100 });
      const rows = byKey(await targetRows(w.h, 'people'));
      expect(rows.size).toBe(100);
      expect(rows.get(3)?.name).toBe('changed 3');
      expect(rows.get(30)?.name).toBe('person 30');
      // The request was done: the next run reads only what is new again.
      expect(((await runAndWait(w.h, dwhId)).tables as Json[])[0]).toMatchObject({ records: 0 });

      await sql(w.server, DB, 'DELETE FROM public.people WHERE id > 95');
      await runAndWait(w.h, dwhId);
      expect(await targetRows(w.h, 'people')).toHaveLength(100);
      const run = await ok(w.h.call('PUT', `/v1/dwh/${dwhId}/resync`));
      expect(run.status).toBe('running');
      const attempts = await ok(w.h.call('GET', `/v1/dwh/${dwhId}/session_attempts`));
      const latest = (attempts.items as Json[])[0] as Json;
      expect(latest.resync).toBe(true);
      for (const t of latest.tables as Json[]) await w.h.app.services.jobs.whenSettled(t.job_id as number);
      expect([...byKey(await targetRows(w.h, 'people')).keys()].sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: 95 }, (_, i) => i + 1),
      );
      expect((await ok(w.h.call('GET', '/v3/table/show/dwh_target/people'))).count).toBe(95);
    } finally {
      await sql(
        w.server,
        DB,
        `DELETE FROM public.people;
         INSERT INTO public.people SELECT g, 'person ' || g, timestamp '2026-01-01' + make_interval(mins => g)
           FROM generate_series(1, 100) g;`,
      );
    }
  }, 60_000);
});
