import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sql as controlSql, one } from '../platform/storage';
import {
  addAuthentication,
  dwhHarness,
  type Json,
  ok,
  runAndWait,
  targetRows,
  warehouseSuite,
} from './testing/fixture';
import { sql } from './testing/postgres';

const w = warehouseSuite('warehouse_runs', {
  seed: async () => {
    await sql(
      w.server,
      DB,
      `CREATE TABLE public.items (id integer PRIMARY KEY, v integer);
       INSERT INTO public.items SELECT g, g % 10 FROM generate_series(1, 2000) g;
       CREATE TABLE public.drop_me (id integer PRIMARY KEY, name text);
       INSERT INTO public.drop_me VALUES (1, 'one'), (2, 'two');
       CREATE TABLE public.same (id integer PRIMARY KEY, v integer);
       INSERT INTO public.same SELECT g, 1 FROM generate_series(1, 10001) g;
       GRANT SELECT ON ALL TABLES IN SCHEMA public TO svc_reader;`,
    );
  },
  // A short connect timeout so the "never answers" case ends quickly; real warehouses answer in far less.
  harness: () => dwhHarness({ connectTimeoutMs: 400 }),
});
const DB = w.database;

async function integrationOf(
  authId: number,
  table: string,
  config: Json,
  target = table,
): Promise<{ dwhId: number; session: string }> {
  const created = await ok(
    w.h.call('POST', '/v1/dwh/', {
      json: {
        name: `${table} ${Math.random().toString(36).slice(2, 7)}`,
        basic_configs: { svc_authentication_id: authId },
        advanced_configs: [{ target_table: target, config: { schema: 'public', table, ...config } }],
        output_config: { database: 'dwh_target' },
      },
    }),
  );
  const dwhId = created.dwh_id as number;
  const sessions = (await (await w.h.call('GET', `/v1/dwh/${dwhId}/bulkload_sessions`)).json()) as Json[];
  return { dwhId, session: sessions[0]?.name as string };
}

const incrementalItems = {
  columns: [
    { name: 'id', type: 'long' },
    { name: 'v', type: 'long' },
  ],
  incremental: true,
  incremental_columns: ['id'],
};

describe('bulk load runs', () => {
  it('runs a session one job at a time: runs asked back to back load every row once', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const { dwhId, session } = await integrationOf(authId, 'items', incrementalItems);
    const first = await ok(w.h.call('PUT', `/v1/dwh/${dwhId}/run_workflow`));
    expect(first.already_running).toEqual([]);

    // While that run is queued or running, every other way of starting the same session is refused.
    const again = await w.h.call('PUT', `/v1/dwh/${dwhId}/run_workflow`);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toMatch(
      /still loading from an earlier run \(items: job \d+/,
    );
    const direct = await w.h.call('POST', `/v3/bulk_loads/${session}/jobs`);
    expect(direct.status).toBe(409);
    expect(((await direct.json()) as Json).message).toMatch(
      /already has job \d+ (queued|running); a session runs one job/,
    );

    const jobs = (await (await w.h.call('GET', `/v3/bulk_loads/${session}/jobs`)).json()) as Json[];
    expect(jobs).toHaveLength(1);
    // A job not yet run already shows its target, config (masked) and an empty schema.
    expect(await w.h.app.services.jobs.whenSettled(jobs[0]?.job_id as number)).toBe('success');
    const ids = (await targetRows(w.h, 'items', 'id')).map((r) => r.id);
    expect(ids).toHaveLength(2000);
    expect(new Set(ids).size).toBe(2000);

    // Once it has ended, the next run goes ahead and finds nothing new.
    const next = await runAndWait(w.h, dwhId);
    expect((next.tables as Json[])[0]).toMatchObject({ status: 'success', records: 0 });
    expect(await targetRows(w.h, 'items')).toHaveLength(2000);
  }, 60_000);

  it('shows a queued job with its target ids, masked config and an empty schema', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const { session } = await integrationOf(authId, 'items', incrementalItems);
    const job = await ok(w.h.call('POST', `/v3/bulk_loads/${session}/jobs`));
    expect(job).toMatchObject({
      schema: [],
      database: { id: expect.any(Number), name: 'dwh_target' },
      table: { id: expect.any(Number), name: 'items' },
      config: {
        embulk_config: { in: { type: 'postgresql', password: '***', start_time: expect.any(String) } },
        config_diff: {},
      },
    });
    expect((job.database as Json).id).toBeGreaterThan(0);
    expect((job.table as Json).id).toBeGreaterThan(0);
    await w.h.app.services.jobs.whenSettled(job.job_id as number);
  });

  it('a dropped source table gives a clear error and leaves the target unchanged', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const { dwhId, session } = await integrationOf(authId, 'drop_me', {
      columns: [
        { name: 'id', type: 'long' },
        { name: 'name', type: 'string' },
      ],
      mode: 'replace',
    });
    expect((await runAndWait(w.h, dwhId)).status).toBe('success');
    const before = await targetRows(w.h, 'drop_me', 'id');
    expect(before.map((r) => r.name)).toEqual(['one', 'two']);

    await sql(w.server, DB, 'DROP TABLE public.drop_me');
    const failed = await runAndWait(w.h, dwhId);
    expect(failed.status).toBe('error');
    expect((failed.tables as Json[])[0]?.error).toMatch(
      /The source table "public\.drop_me" does not exist \(was it dropped or renamed\?\)/,
    );
    expect(await targetRows(w.h, 'drop_me', 'id')).toEqual(before);
    // The failed job still shows what it ran with.
    const [job] = (await (await w.h.call('GET', `/v3/bulk_loads/${session}/jobs`)).json()) as Json[];
    expect(job).toMatchObject({ status: 'error', schema: [], table: { name: 'drop_me' } });
    expect(((job as Json).table as Json).id).toBeGreaterThan(0);
  }, 60_000);

  it('a host that accepts connections and never answers times out with a clear error; the target stays', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const authId = await addAuthentication(w.h, w.server, DB, w.creds);
      const { dwhId } = await integrationOf(authId, 'items', incrementalItems);
      await runAndWait(w.h, dwhId);
      const before = await targetRows(w.h, 'items', 'id');

      // The authentication now points at the silent server (the loopback only, never another address).
      await ok(w.h.call('PATCH', `/v1/authentications/${authId}`, { json: { host: '127.0.0.1', port } }));
      const test = await ok(w.h.call('POST', `/v1/authentications/${authId}/test`));
      expect(test).toMatchObject({
        ok: false,
        message: `Could not reach 127.0.0.1:${port} in time: check the host, the port and any firewall in between.`,
      });
      const failed = await runAndWait(w.h, dwhId);
      expect(failed.status).toBe('error');
      expect((failed.tables as Json[])[0]?.error).toMatch(
        new RegExp(`Could not reach 127\\.0\\.0\\.1:${port} in time`),
      );
      expect(await targetRows(w.h, 'items', 'id')).toEqual(before);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 60_000);

  it('bounds the boundary digests: over the cap the next run reads strictly past the last value', async () => {
    const authId = await addAuthentication(w.h, w.server, DB, w.creds);
    const { dwhId, session } = await integrationOf(authId, 'same', { ...incrementalItems, incremental_columns: ['v'] });
    expect(((await runAndWait(w.h, dwhId)).tables as Json[])[0]).toMatchObject({ status: 'success', records: 10001 });
    const res = await w.h.call('GET', `/v3/bulk_loads/${session}`);
    const text = await res.text();
    expect(text).not.toContain('boundary_digests');
    expect((JSON.parse(text) as Json).config_diff).toMatchObject({
      in: { incremental_column: 'v', last_record: ['1'], boundary_overflow: true },
    });
    const stored = (await one<{ config_diff_json: string }>(
      w.h.deps.storage.db,
      controlSql`SELECT config_diff_json FROM bulk_loads WHERE name = ${session}`,
    )) as { config_diff_json: string };
    expect(stored.config_diff_json.length).toBeLessThan(1000);

    await sql(w.server, DB, 'INSERT INTO public.same VALUES (20001, 1), (20002, 2)');
    const second = await runAndWait(w.h, dwhId);
    // The late row at the overflowed value is the documented loss; nothing is loaded twice.
    expect((second.tables as Json[])[0]).toMatchObject({ status: 'success', records: 1 });
    const ids = (await targetRows(w.h, 'same', 'id')).map((r) => r.id);
    expect(ids).toHaveLength(10002);
    expect(new Set(ids).size).toBe(10002);
  }, 60_000);
});
