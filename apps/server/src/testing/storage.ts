import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { type OpenedStorage, openStorage } from '../platform/storage';

/**
 * The storage a test app runs on: a real SQLite file in the test's folder, or, when the suite runs on
 * PostgreSQL (`SVC_TEST_BACKEND=postgres`, which `npm test` sets for its second pass), a fresh database of
 * its own on the test server (`SVC_TEST_PG_URL`), dropped when the app closes.
 */
export function testBackend(): 'sqlite' | 'postgres' {
  return process.env.SVC_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
}

/** Runs one statement as the test server's superuser on its maintenance database. */
async function admin(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new empty database on the test server; returns its URL and how to drop it. */
export async function freshTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.SVC_TEST_PG_URL;
  if (!server) {
    throw new Error(
      'SVC_TEST_BACKEND=postgres needs SVC_TEST_PG_URL: start one with `node scripts/postgres.mjs start`.',
    );
  }
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  await admin(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

export async function openTestStorage(dataDir: string): Promise<OpenedStorage> {
  if (testBackend() === 'sqlite') return openStorage({ backend: 'sqlite', file: join(dataDir, 'control.sqlite') });
  const database = await freshTestDatabase();
  const storage = await openStorage({ backend: 'postgres', url: database.url });
  const close = storage.close;
  return Object.assign(storage, {
    close: async () => {
      await close();
      await database.drop();
    },
  });
}
