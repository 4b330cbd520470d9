import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QueryTestDatabase, startQueryTestDatabase } from '../../testing/queryDatabase';
import { installQueryFunctions } from './functions';

let pg: QueryTestDatabase;
beforeAll(async () => {
  pg = await startQueryTestDatabase();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

describe('installQueryFunctions', () => {
  it('can run again, also on two connections at once (two nodes starting)', async () => {
    const [a, b] = await Promise.all([pg.pool.connect(), pg.pool.connect()]);
    try {
      await Promise.all([installQueryFunctions(a), installQueryFunctions(b)]);
      const { rows } = await a.query("SELECT svc_fn.ts_text(svc_fn.ts_parse('2024-01-01 09:00 JST'), 'JST') AS v");
      expect(rows[0].v).toBe('2024-01-01 09:00:00.000 JST');
    } finally {
      a.release();
      b.release();
    }
  });

  it('functions that catch errors or switch zones still work when PostgreSQL plans in parallel', async () => {
    const client = await pg.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: version } = await client.query("SELECT current_setting('server_version_num')::int AS v");
      const setting = version[0].v >= 160000 ? 'debug_parallel_query' : 'force_parallel_mode';
      await client.query(`SET LOCAL ${setting} = on`);
      const { rows } = await client.query(
        `SELECT svc_fn.ts_parse('2024-01-01 Mars/Olympus') AS bad_zone, svc_fn.element_at('not json', '1') AS bad_json,
                svc_fn.format_java(to_timestamp(0), 'America/Los_Angeles', ARRAY['Lz1']) AS zone`,
      );
      expect(rows[0]).toEqual({ bad_zone: null, bad_json: null, zone: 'PST' });
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
