import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from './dwh/testing/postgres';
import { type RunningServer, type ServerProcess, spawnServer, startServer } from './testing/serverProcess';
import { freshTestDatabase } from './testing/storage';
import { startTcpProxy, type TcpProxy } from './testing/tcpProxy';

/**
 * The real server (`src/main.ts`) and a PostgreSQL that is not there, refuses it, or goes away while it runs
 * (issue 16, "Bad input and faults").
 */

const SECRET_PASSWORD = 'pg-password-that-must-not-leak';
const MASTER_KEY = `1/${'5eed'.repeat(10)}`;

let postgres: TestPostgres;
const dirs: string[] = [];
let server: ServerProcess | null = null;

beforeAll(() => {
  postgres = startTestPostgres();
  process.env.SVC_TEST_PG_URL ??= postgres.url;
});
afterEach(async () => {
  await server?.stop();
  server = null;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  postgres.stop();
});

function env(databaseUrl: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-faults-'));
  dirs.push(dir);
  return { SVC_DATABASE_URL: databaseUrl, SVC_DATA_DIR: dir, SVC_SECRET: 'a-secret-for-the-fault-tests' };
}

/** The server's whole output once it has exited, and its exit code. */
async function failedStart(databaseUrl: string): Promise<{ code: number | null; lines: string[] }> {
  server = spawnServer(env(databaseUrl));
  const code = await server.exited;
  return {
    code,
    lines: server
      .output()
      .split('\n')
      .filter((l) => l.trim() !== ''),
  };
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('starting without a usable PostgreSQL', () => {
  it('PostgreSQL down: one line saying where and what to do, and a non-zero exit', async () => {
    const port = await closedPort();
    const { code, lines } = await failedStart(`postgres://svc:${SECRET_PASSWORD}@127.0.0.1:${port}/svc`);
    expect(code).not.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`PostgreSQL at postgres://svc@127.0.0.1:${port}/svc cannot be reached`);
    expect(lines[0]).toContain('Start it, or fix SVC_DATABASE_URL');
    expect(lines[0]).not.toContain(SECRET_PASSWORD);
  }, 60_000);

  it('wrong credentials: one line saying they were refused, without the password', async () => {
    const url = new URL(postgres.url);
    url.password = SECRET_PASSWORD;
    const { code, lines } = await failedStart(url.toString());
    expect(code).not.toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('refused the user name or password in SVC_DATABASE_URL');
    expect(lines[0]).not.toContain(SECRET_PASSWORD);
  }, 60_000);
});

describe('PostgreSQL going away while the server runs', () => {
  let proxy: TcpProxy;
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await freshTestDatabase();
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  const authorized = (init: RequestInit = {}): RequestInit => ({
    ...init,
    headers: { authorization: `SVC1 ${MASTER_KEY}`, 'content-type': 'application/json', ...init.headers },
  });
  const postback = (node: RunningServer, id: number) =>
    node.request('/postback/v3/event/shop/clicks', authorized({ method: 'POST', body: JSON.stringify({ id }) }));

  it('answers 503 with the error body meanwhile, recovers when it returns, and loses no acknowledged write', async () => {
    const target = new URL(database.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port));
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    const node = await startServer({
      ...env(viaProxy.toString()),
      SVC_ADMIN_EMAIL: 'ops@faults.test',
      SVC_ADMIN_API_KEY: MASTER_KEY,
    });
    server = node;
    expect((await node.request('/v3/database/create/shop', authorized({ method: 'POST' }))).status).toBe(200);

    // Postbacks one after another while the database goes away and comes back: each is either acknowledged
    // (200) or refused (503), never lost once acknowledged.
    const acknowledged: number[] = [];
    const refused: Response[] = [];
    let id = 0;
    const send = async () => {
      const res = await postback(node, ++id);
      if (res.status === 200) acknowledged.push(id);
      else refused.push(res);
      return res;
    };
    for (let i = 0; i < 20; i++) expect((await send()).status).toBe(200);
    expect((await node.request('/health/ready')).status).toBe(200);
    await proxy.cut();
    // Readiness fails at once, so a load balancer stops sending traffic; liveness and server_status stay up.
    const notReady = await node.request('/health/ready');
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({
      status: 'not ready',
      checks: expect.arrayContaining([
        { name: 'control database', ok: false, message: 'the control database does not answer' },
      ]),
    });
    expect((await node.request('/health/live')).status).toBe(200);
    expect((await node.request('/v3/system/server_status')).status).toBe(200);
    const down = await send();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    const body = (await down.clone().json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'severity', 'status_code', 'text']);
    expect(body).toMatchObject({ status_code: 503, message: expect.stringContaining('database is not reachable') });
    // Reads fail the same way, and the server stays up.
    expect((await node.request('/v3/table/show/shop/clicks', authorized())).status).toBe(503);
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(503);

    await proxy.restore();
    // Back: the first requests after the database returns may still meet a connection that died with it.
    for (let i = 0; acknowledged.length < 40; i++) {
      const res = await send();
      expect(res.status === 200 || (i < 10 && res.status === 503), `${res.status} ${await res.clone().text()}`).toBe(
        true,
      );
    }
    expect(refused.every((r) => r.status === 503)).toBe(true);
    expect((await node.request('/health/ready')).status).toBe(200);

    // Every acknowledged postback is in the table; no refused one is.
    const issued = await node.request(
      '/v3/job/issue/presto/shop',
      authorized({ method: 'POST', body: JSON.stringify({ query: 'SELECT id FROM clicks ORDER BY id' }) }),
    );
    expect(issued.status).toBe(200);
    const { job_id: job } = (await issued.json()) as { job_id: string };
    for (;;) {
      const status = (await (await node.request(`/v3/job/status/${job}`, authorized())).json()) as { status: string };
      if (status.status === 'success') break;
      expect(['queued', 'running']).toContain(status.status);
      await new Promise((r) => setTimeout(r, 50));
    }
    const result = await (await node.request(`/v3/job/result/${job}?format=json`, authorized())).text();
    const stored = result
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as [number])[0]);
    expect(stored).toEqual(acknowledged);
    // The logs of the outage name the database, never its password.
    expect(node.output()).toContain('storage unavailable');
    expect(node.output()).not.toContain(decodeURIComponent(target.password));
  }, 120_000);
});
