import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareRecord } from './data';
import { writeSqliteDataFile } from './data/testing/sqliteDataFiles';
import { type RunningServer, type ServerProcess, spawnServer, startServer } from './testing/serverProcess';

describe('the start', () => {
  let dir = '';
  let server: ServerProcess | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('never prints secrets the operator supplied, and names where they came from', async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-main-'));
    const password = 'operator-chosen-password-42';
    const apiKey = `1/${'ab'.repeat(20)}`;
    server = spawnServer({
      SVC_DATA_DIR: dir,
      SVC_SECRET: 'a-test-secret-of-some-length',
      SVC_ADMIN_EMAIL: 'ops@example.test',
      SVC_ADMIN_PASSWORD: password,
      SVC_ADMIN_API_KEY: apiKey,
    });
    await server.waitFor(/"msg":"listening"/);
    const output = server.output();
    expect(output).toContain('ops@example.test');
    expect(output).not.toContain(password);
    expect(output).not.toContain('ab'.repeat(20));
    expect(output).toContain('as given in SVC_ADMIN_PASSWORD');
    expect(output).toContain('as given in SVC_ADMIN_API_KEY');
    // The write-only key is generated, so it is shown once.
    expect(output).toMatch(/Write-only API key +\d+\/[0-9a-f]{40}/);
  }, 30_000);

  it('converts a data folder written by the SQLite plane once at start-up, a line per database', async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-upgrade-'));
    const apiKey = `1/${'cd'.repeat(20)}`;
    const env = { SVC_DATA_DIR: dir, SVC_SECRET: 'a-test-secret-of-some-length', SVC_ADMIN_API_KEY: apiKey };
    const headers = { authorization: `SVC1 ${apiKey}` };
    const records = [
      { time: 1, action: 'buy', amount: 7 },
      { time: 2, action: 'view', note: 'x' },
    ];
    // The catalog (the control database) as the release before left it, with the rows in its own data file.
    let running: RunningServer = await startServer(env);
    server = running;
    const tail = async () => (await (await running.request('/v3/table/tail/shop/events', { headers })).text()).trim();
    expect((await running.request('/v3/database/create/shop', { method: 'POST', headers })).status).toBe(200);
    for (const record of records) {
      const res = await running.request('/postback/v3/event/shop/events', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(record),
      });
      expect(res.status).toBe(200);
    }
    const before = await tail();
    expect(before.split('\n')).toHaveLength(2);
    await running.stop();
    // That release kept the rows in a SQLite file (testing/sqliteDataFiles.ts), not in a DuckDB file.
    const duckFile = join(dir, 'databases', '1', '1.duckdb');
    for (const file of [duckFile, `${duckFile}.wal`]) rmSync(file, { force: true });
    const sqliteFile = join(dir, 'databases', '1', '1.sqlite');
    writeSqliteDataFile(sqliteFile, [{ name: 'events', records: records.map((r) => prepareRecord(r)), now: 1 }]);

    running = await startServer(env);
    server = running;
    expect(running.output()).toMatch(/customer database converted to DuckDB.*"tables":1,"rows":2/);
    expect(existsSync(duckFile)).toBe(true);
    expect(existsSync(`${sqliteFile}.converted`)).toBe(true);
    expect(await tail()).toBe(before);
  }, 180_000);

  it('stops cleanly while a query job runs on DuckDB: the worker interrupts it and closes its files first', async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-stop-'));
    const apiKey = `1/${'ef'.repeat(20)}`;
    const headers = { authorization: `SVC1 ${apiKey}`, 'content-type': 'application/json' };
    const running = await startServer({
      SVC_DATA_DIR: dir,
      SVC_SECRET: 'a-test-secret-of-some-length',
      SVC_ADMIN_API_KEY: apiKey,
    });
    server = running;
    const post = (path: string, body: unknown) =>
      running.request(path, { method: 'POST', headers, body: JSON.stringify(body) });
    expect((await post('/v3/database/create/shop', {})).status).toBe(200);
    expect((await post('/postback/v3/event/shop/events', { time: 1, action: 'buy' })).status).toBe(200);
    // Hours of work in little memory (an endless recursion would end at the memory limit first).
    const forever =
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000) SELECT count(*) FROM c a, c b, c d, c e';
    const issued = (await (await post('/v3/job/issue/presto/shop', { query: forever })).json()) as { job_id: string };
    const status = async () =>
      ((await (await running.request(`/v3/job/status/${issued.job_id}`, { headers })).json()) as { status: string })
        .status;
    let seen = await status();
    while (seen === 'queued' || seen === 'booting') seen = await new Promise((r) => setImmediate(r)).then(status);
    expect(seen).toBe('running');
    // Before the fix, terminating the worker under the running query aborted the process (SIGABRT).
    expect(await running.stop()).toBe(0);
    expect(running.output()).not.toMatch(/terminate called|Napi::Error/);
  }, 120_000);

  it('refuses to start on DuckDB when the thread pool is too small for the job slots, saying what to set', async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-threads-'));
    server = spawnServer({
      SVC_DATA_DIR: dir,
      SVC_SECRET: 'a-test-secret-of-some-length',
      SVC_JOB_SLOTS: '6',
      UV_THREADPOOL_SIZE: '15',
    });
    expect(await server.exited).toBe(1);
    // Six slots, six overflow slots and four threads beside them.
    expect(server.output()).toContain('set UV_THREADPOOL_SIZE=16');
    expect(server.output()).not.toContain('"msg":"listening"');
  }, 30_000);
});
