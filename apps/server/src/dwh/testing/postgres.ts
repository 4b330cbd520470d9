import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * The tests' PostgreSQL: `SVC_TEST_PG_URL` when `npm test` started one (scripts/postgres.mjs), otherwise a
 * private server this test file starts and stops through the same script. It never skips: a server that
 * cannot start fails the tests with the script's message.
 */

const script = join(dirname(fileURLToPath(import.meta.url)), '../../../../../scripts/postgres.mjs');

export interface TestPostgres {
  /** Superuser URL. */
  url: string;
  host: string;
  port: number;
  stop(): void;
}

export function startTestPostgres(): TestPostgres {
  const given = process.env.SVC_TEST_PG_URL;
  if (given) {
    const u = new URL(given);
    return { url: given, host: u.hostname, port: Number(u.port), stop: () => {} };
  }
  let out: string;
  try {
    out = execFileSync(process.execPath, [script, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`PostgreSQL for the warehouse tests could not start: ${e.stderr || e.message}`);
  }
  const started = JSON.parse(out.trim().split('\n').pop() as string) as { url: string; dir: string; port: number };
  return {
    url: started.url,
    host: '127.0.0.1',
    port: started.port,
    stop: () => execFileSync(process.execPath, [script, 'stop', started.dir], { stdio: 'ignore' }),
  };
}

/**
 * A warehouse database name of this pass: the SQLite and PostgreSQL passes run the same test file at the
 * same time on the one test server, and must not drop each other's warehouse.
 */
export function warehouseDatabase(name: string): string {
  return `${name}_${process.env.SVC_TEST_BACKEND === 'postgres' ? 'pg' : 'sqlite'}`;
}

/** Runs SQL as the superuser on `database` of the server. */
export async function sql(server: TestPostgres, database: string, text: string, values: unknown[] = []) {
  const u = new URL(server.url);
  u.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/**
 * A fresh warehouse database with a reader role and the tables the tests load: `orders` with 100,000 rows of
 * integers, numerics, doubles, text, timestamps, JSON, booleans, arrays, a binary column and NULLs.
 */
export async function seedWarehouse(
  server: TestPostgres,
  database: string,
): Promise<{ user: string; password: string }> {
  await sql(server, 'postgres', `DROP DATABASE IF EXISTS ${database}`);
  await sql(server, 'postgres', `CREATE DATABASE ${database}`);
  await sql(
    server,
    'postgres',
    // Roles belong to the whole server: another test process may be creating it at this moment.
    `DO $$ BEGIN
      CREATE ROLE svc_reader LOGIN PASSWORD 'reader-Pa55';
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
  );
  await sql(
    server,
    database,
    `CREATE TABLE public.orders (
       id bigint PRIMARY KEY,
       qty integer,
       price numeric(12,2),
       ratio double precision,
       "Customer Name" text,
       created_at timestamptz NOT NULL,
       updated_at timestamp,
       payload jsonb,
       paid boolean,
       tags integer[],
       blob bytea
     );
     INSERT INTO public.orders
       SELECT g, CASE WHEN g % 7 = 0 THEN NULL ELSE g % 1000 END, (g % 10000) / 100.0 + 0.25,
         CASE WHEN g % 11 = 0 THEN NULL ELSE g / 8.0 END, 'customer ' || g,
         timestamptz '2026-01-01 00:00:00+00' + make_interval(secs => g),
         timestamp '2026-01-01 00:00:00' + make_interval(secs => g / 10),
         CASE WHEN g % 5 = 0 THEN NULL ELSE jsonb_build_object('g', g, 'even', g % 2 = 0) END,
         g % 2 = 0, ARRAY[g, g + 1], '\\x00ff'::bytea
       FROM generate_series(1, 100000) g;
     CREATE TABLE public.events (kind text, at timestamp, n integer);
     INSERT INTO public.events VALUES ('a', '2026-02-01 10:00:00', 1), ('b', '2026-02-01 10:00:00', 2);
     GRANT USAGE ON SCHEMA public TO svc_reader;
     GRANT SELECT ON ALL TABLES IN SCHEMA public TO svc_reader;
     ANALYZE;`,
  );
  return { user: 'svc_reader', password: 'reader-Pa55' };
}
