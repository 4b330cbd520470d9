import pg from 'pg';
import { sql, startTestPostgres, type TestPostgres } from '../../dwh/testing/postgres';
import { installQueryFunctions } from '../query/postgres/functions';

/**
 * A private database on the tests' PostgreSQL (dwh/testing/postgres.ts) with the query functions installed.
 * `stop` drops the database and the read roles the tests made (roles belong to the whole server).
 */
export interface QueryTestDatabase {
  server: TestPostgres;
  pool: pg.Pool;
  /** A prefix unique to this run, for schema (and so role) names. */
  prefix: string;
  stop(): Promise<void>;
}

export async function startQueryTestDatabase(): Promise<QueryTestDatabase> {
  const server = startTestPostgres();
  const prefix = `q${process.pid}_${Date.now().toString(36)}`;
  const database = `svc_query_${prefix}`;
  await sql(server, 'postgres', `CREATE DATABASE ${database}`);
  const url = new URL(server.url);
  url.pathname = `/${database}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  const client = await pool.connect();
  try {
    await installQueryFunctions(client);
  } finally {
    client.release();
  }
  return {
    server,
    pool,
    prefix,
    async stop() {
      await pool.end();
      await sql(server, 'postgres', `DROP DATABASE ${database} WITH (FORCE)`);
      const roles = await sql(server, 'postgres', 'SELECT rolname FROM pg_roles WHERE rolname LIKE $1', [
        `svc_read_${prefix}%`,
      ]);
      for (const { rolname } of roles.rows) await sql(server, 'postgres', `DROP ROLE "${rolname}"`);
      server.stop();
    },
  };
}
