import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { migrations } from '../migrations/index';
import { type OpenedStorage, openStorage } from '../platform/storage';

/**
 * The storage a test app runs on: a real SQLite file in the test's folder, or, when the suite runs on
 * PostgreSQL (`SVC_TEST_BACKEND=postgres`, which `npm test` sets for its second pass), a fresh database of
 * its own on the test server (`SVC_TEST_PG_URL`), dropped when the app closes.
 */
export function testBackend(): 'sqlite' | 'postgres' {
  return process.env.SVC_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
}

/** Runs statements as the test server's superuser on its maintenance database. */
async function admin<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Renames a database once the connections that just closed have left it (a backend exits a moment after its
 * client disconnects, and a rename needs the database free).
 */
async function renameWhenFree(client: pg.Client, from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(`ALTER DATABASE ${from} RENAME TO ${to}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 100) throw err;
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [from]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * A migrated template database, made once per schema version by whichever test process needs it first (an
 * advisory lock keeps parallel test processes from making it twice). New test databases are copies of it,
 * which is much faster than migrating each.
 */
async function templateDatabase(serverUrl: string): Promise<string> {
  const version = createHash('sha256').update(JSON.stringify(migrations)).digest('hex').slice(0, 12);
  const name = `svc_template_${version}`;
  return admin(serverUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock(7261017)');
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) {
        // Migrated under a working name and renamed once whole: a failed migration never leaves a template.
        const working = `${name}_${randomBytes(4).toString('hex')}`;
        await client.query(`CREATE DATABASE ${working}`);
        try {
          const storage = await openStorage({ backend: 'postgres', url: databaseUrl(serverUrl, working) });
          await storage.close();
        } catch (err) {
          await client.query(`DROP DATABASE IF EXISTS ${working} WITH (FORCE)`);
          throw err;
        }
        await renameWhenFree(client, working, name);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(7261017)');
    }
    return name;
  });
}

/** The template of each test server, made or found once per test process. */
const templates = new Map<string, Promise<string>>();

/** One connection per test process to the server's maintenance database, for creating and dropping. */
const maintenanceClients = new Map<string, Promise<{ client: pg.Client; busy: number }>>();

/**
 * Runs one statement on that connection. Its socket holds the process open only while a statement runs: a
 * test process ends with the connection idle, and a script's pending CREATE keeps it alive until answered.
 */
async function maintenance(serverUrl: string, statement: string, params: unknown[] = []): Promise<number> {
  let entry = maintenanceClients.get(serverUrl);
  if (!entry) {
    const client = new pg.Client({ connectionString: serverUrl });
    // The server stopping (a test's own cluster) ends the idle connection: the next statement opens another.
    client.on('error', () => maintenanceClients.delete(serverUrl));
    entry = client.connect().then(() => ({ client, busy: 0 }));
    maintenanceClients.set(serverUrl, entry);
  }
  const m = await entry;
  const socket = (m.client as unknown as { connection: { stream: { ref(): void; unref(): void } } }).connection.stream;
  if (m.busy++ === 0) socket.ref();
  try {
    return (await m.client.query(statement, params)).rowCount ?? 0;
  } finally {
    if (--m.busy === 0) socket.unref();
  }
}

/** A new database on the test server with the newest schema; returns its URL and how to drop it. */
export async function freshTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = process.env.SVC_TEST_PG_URL;
  if (!server) {
    throw new Error(
      'SVC_TEST_BACKEND=postgres needs SVC_TEST_PG_URL: start one with `node scripts/postgres.mjs start`.',
    );
  }
  templates.set(server, templates.get(server) ?? templateDatabase(server));
  const template = await (templates.get(server) as Promise<string>);
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  // A file copy of the small template is several times faster than the default (which logs every page).
  await maintenance(server, `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
  return {
    url: databaseUrl(server, name),
    drop: async () => {
      // A DROP that finds a backend still exiting waits 100 ms before it looks again; asking is much quicker.
      for (let asked = 0; asked < 1000; asked++) {
        const left = await maintenance(server, 'SELECT 1 FROM pg_stat_activity WHERE datname = $1 LIMIT 1', [name]);
        if (left === 0) break;
      }
      await maintenance(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A test's database: `open` gives a new connection to it (each node, each restart), `drop` removes it once
 * the test is done. A SQLite file goes with the test's folder, so there is nothing to drop.
 */
export interface TestDatabase {
  open(): Promise<OpenedStorage>;
  drop(): Promise<void>;
}

export async function testDatabase(dataDir: string, backend = testBackend()): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const target = { backend: 'sqlite', file: join(dataDir, 'control.sqlite') } as const;
    return { open: () => openStorage(target), drop: async () => {} };
  }
  const database = await freshTestDatabase();
  return { open: () => openStorage({ backend: 'postgres', url: database.url }), drop: database.drop };
}

/** A test's storage whose close also drops the database, and how another node opens the same database. */
export type TestStorage = OpenedStorage & { openAgain(): Promise<OpenedStorage> };

export async function openTestStorage(dataDir: string): Promise<TestStorage> {
  const database = await testDatabase(dataDir);
  const storage = await database.open();
  const close = storage.close;
  return Object.assign(storage, {
    openAgain: () => database.open(),
    close: async () => {
      await close();
      await database.drop();
    },
  });
}
