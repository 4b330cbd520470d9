import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startTestPostgres } from '../../dwh/testing/postgres';
import { migrations } from '../index';

/**
 * A control database in a fresh PostgreSQL database, migrated up to (not including) `version`, and a client on it:
 * the state a node upgrading to that migration starts from. `apply` runs that migration's PostgreSQL text; `remove`
 * closes the client and drops the database.
 */
export async function postgresBefore(
  version: number,
): Promise<{ client: pg.Client; apply(): Promise<void>; remove(): Promise<void> }> {
  const server = startTestPostgres();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const name = `svc_m${version}_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  const remove = async () => {
    await client.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    server.stop();
  };
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  try {
    await client.connect();
    for (const m of sorted) if (m.version < version && m.postgres.trim() !== '') await client.query(m.postgres);
  } catch (err) {
    await remove();
    throw err;
  }
  const apply = async () => {
    await client.query((sorted.find((m) => m.version === version) as { postgres: string }).postgres);
  };
  return { client, apply, remove };
}
