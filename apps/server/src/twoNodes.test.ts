import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePart } from '@svc/bulk-format';
import { CONSOLE_HEADER } from '@svc/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from './dwh/testing/postgres';
import { type RunningServer, startServer } from './testing/serverProcess';
import { freshTestDatabase } from './testing/storage';

/**
 * Two nodes, one database (issue 16), as an operator runs them: two server processes (`src/main.ts`) on one
 * PostgreSQL database, each with its own data folder and node name, sharing only SVC_SECRET. What one node
 * is told, the other knows.
 */

type Json = Record<string, unknown>;

const ADMIN = { email: 'ops@two-nodes.test', password: 'two nodes one database' };
const MASTER_KEY = `1/${'c0ffee'.repeat(6)}beef`;

let postgres: TestPostgres;
let database: { url: string; drop(): Promise<void> };
let warehouse: string;
const dirs: string[] = [];
const nodes: RunningServer[] = [];

function nodeEnv(name: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), `svc-node-${name}-`));
  dirs.push(dir);
  return {
    SVC_DATABASE_URL: database.url,
    SVC_DATA_DIR: dir,
    SVC_NODE_ID: `node-${name}`,
    SVC_SECRET: 'the-secret-both-nodes-share',
    SVC_ADMIN_EMAIL: ADMIN.email,
    SVC_ADMIN_PASSWORD: ADMIN.password,
    SVC_ADMIN_API_KEY: MASTER_KEY,
    SVC_DWH_ALLOW_LOOPBACK: '1',
    SVC_SCHEDULE_INTERVAL_SECONDS: '1',
  };
}

async function startNode(name: string): Promise<RunningServer> {
  const node = await startServer(nodeEnv(name));
  nodes.push(node);
  return node;
}

/** A call with the master key (or `key`), JSON or raw body; answers the parsed JSON after checking the status. */
async function call(
  node: RunningServer,
  method: string,
  path: string,
  opts: { json?: unknown; body?: Uint8Array; key?: string; status?: number } = {},
): Promise<Json> {
  const headers: Record<string, string> = { authorization: `SVC1 ${opts.key ?? MASTER_KEY}` };
  let body: string | Uint8Array | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.body) {
    headers['content-type'] = 'application/octet-stream';
    body = opts.body;
  }
  const res = await node.request(path, { method, headers, ...(body ? { body } : {}) });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBe(opts.status ?? 200);
  return JSON.parse(text) as Json;
}

/** The body of a GET with the master key, as text. */
async function textOf(node: RunningServer, path: string): Promise<string> {
  const res = await node.request(path, { headers: { authorization: `SVC1 ${MASTER_KEY}` } });
  expect(res.status, path).toBe(200);
  return res.text();
}

/** Polls `probe` until it returns something other than undefined (each poll is a real request). */
async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function jobSettled(node: RunningServer, id: unknown): Promise<string> {
  return until(async () => {
    const { status } = await call(node, 'GET', `/v3/job/status/${id}`);
    return status === 'queued' || status === 'running' ? undefined : (status as string);
  }, `job ${id}`);
}

beforeAll(async () => {
  postgres = startTestPostgres();
  process.env.SVC_TEST_PG_URL ??= postgres.url;
  database = await freshTestDatabase();
  // The warehouse a scheduled bulk load reads from: another database of the same server.
  warehouse = `svc_wh_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${warehouse}`);
  await admin.end();
  const u = new URL(postgres.url);
  u.pathname = `/${warehouse}`;
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  await client.query("CREATE TABLE events (kind text, n integer); INSERT INTO events VALUES ('a', 1), ('b', 2)");
  await client.end();
}, 60_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await database?.drop();
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${warehouse} WITH (FORCE)`);
  await admin.end();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  postgres.stop();
});

describe('two server processes on one PostgreSQL database', () => {
  it('share keys, sessions, fresh rows, bulk imports and schedules', async () => {
    const a = await startNode('a');
    const b = await startNode('b');
    // The first node made the account; the second found it.
    expect(a.output()).toContain(ADMIN.email);
    expect(b.output()).not.toContain(ADMIN.email);

    // A bulk load scheduled for the next whole minute (UTC) that is at least 10 s away; it fires while the
    // rest runs.
    const now = new Date();
    const due = new Date(Math.ceil((now.getTime() + 10_000) / 60_000) * 60_000);
    await call(a, 'POST', '/v3/database/create/shop');
    await call(a, 'POST', '/v3/table/create/shop/loaded/log');
    const source = new URL(postgres.url);
    await call(a, 'POST', '/v3/bulk_loads', {
      json: {
        name: 'nightly',
        database: 'shop',
        table: 'loaded',
        cron: `${due.getUTCMinutes()} ${due.getUTCHours()} * * *`,
        timezone: 'UTC',
        config: {
          in: {
            type: 'postgresql',
            host: source.hostname,
            port: Number(source.port),
            database: warehouse,
            user: decodeURIComponent(source.username),
            password: decodeURIComponent(source.password),
            ssl_mode: 'disable',
            schema: 'public',
            table: 'events',
          },
          out: { mode: 'append' },
        },
      },
    });

    // A console session started on A works on B; a key it creates on A works on B.
    const login = await a.request('/console-api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CONSOLE_HEADER]: '1' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const consoleHeaders = { cookie, [CONSOLE_HEADER]: '1', 'content-type': 'application/json' };
    expect((await b.request('/console-api/me', { headers: consoleHeaders })).status).toBe(200);
    const created = await a.request('/console-api/api-keys', {
      method: 'POST',
      headers: consoleHeaders,
      body: JSON.stringify({ name: 'Shared across nodes', type: 'master' }),
    });
    expect(created.status).toBe(200);
    const { key } = (await created.json()) as { key: string };
    expect((await call(b, 'GET', '/v3/database/list', { key })).databases).toEqual([
      expect.objectContaining({ name: 'shop' }),
    ]);

    // A postback acknowledged by A is in the table B reads, at once.
    await call(a, 'POST', '/postback/v3/event/shop/clicks', { json: { page: '/home', n: 7 } });
    expect(await call(b, 'GET', '/v3/table/show/shop/clicks')).toMatchObject({ count: 1 });
    const { job_id: queryJob } = await call(b, 'POST', '/v3/job/issue/presto/shop', {
      json: { query: 'SELECT page, n FROM clicks' },
    });
    expect(await jobSettled(b, queryJob)).toBe('success');
    expect(await textOf(b, `/v3/job/result/${queryJob}?format=json`)).toBe('["/home",7]\n');

    // The schedule fires once: one run, whichever node queued it, and no second one while both keep ticking
    // (each checks every second) for a few seconds past the firing.
    const runs = async () => (await call(b, 'GET', '/v3/bulk_loads/nightly/jobs')) as unknown as Json[];
    const [run] = await until(
      async () => {
        const list = await runs();
        return list.length > 0 ? list : undefined;
      },
      'the scheduled bulk load',
      120_000,
    );
    expect(await jobSettled(a, run?.job_id)).toBe('success');
    await until(async () => {
      expect(await runs()).toHaveLength(1);
      return Date.now() > due.getTime() + 5_000 ? true : undefined;
    }, 'five seconds past the firing');
    expect(await call(a, 'GET', '/v3/table/show/shop/loaded')).toMatchObject({ count: 2 });

    // A bulk import uploaded to A performs and commits on B after A has gone, data folder and all.
    await call(a, 'POST', '/v3/table/create/shop/imported/log');
    await call(a, 'POST', '/v3/bulk_import/create/upload/shop/imported');
    const rows = Array.from({ length: 500 }, (_, i) => ({ time: 1_700_000_000 + i, n: i }));
    await call(a, 'PUT', '/v3/bulk_import/upload_part/upload/p1', { body: await encodePart(rows) });
    expect(await a.stop()).toBe(0);
    rmSync(dirs[0] as string, { recursive: true, force: true });
    const { job_id: performJob } = await call(b, 'POST', '/v3/bulk_import/perform/upload');
    expect(await jobSettled(b, performJob)).toBe('success');
    expect(await call(b, 'GET', '/v3/bulk_import/show/upload')).toMatchObject({
      status: 'ready',
      valid_records: 500,
    });
    await call(b, 'POST', '/v3/bulk_import/commit/upload');
    expect(await call(b, 'GET', '/v3/table/show/shop/imported')).toMatchObject({ count: 500 });
  }, 240_000);
});
