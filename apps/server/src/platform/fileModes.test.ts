import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseAndTable, performAndWait, uploadRows } from '../bulk-import/testing/bulkImport';
import { run, tableWithRows } from '../jobs/testing/jobs';
import { createHarness } from '../testing/harness';
import { type RunningServer, startServer } from '../testing/serverProcess';
import { restrictDataTree } from './fileModes';

/** Every entry under `root` (itself included) with its permission bits, as `path: mode` in octal. */
function modes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string, rel: string) => {
    const stat = statSync(path);
    out[rel] = (stat.mode & 0o777).toString(8);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name), `${rel}/${name}`);
  };
  walk(root, '.');
  return out;
}

/** The entries of `modes(root)` that are not owner-only: folders other than 700, files other than 600. */
const loose = (root: string, all: Record<string, string>) =>
  Object.entries(all).filter(([rel, mode]) => mode !== (statSync(join(root, rel)).isDirectory() ? '700' : '600'));

describe('file modes of the data folder', () => {
  let dir = '';
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('brings an existing tree to 600 for files and 700 for folders, and says how many it changed', () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-modes-'));
    mkdirSync(join(dir, 'a/b'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, 'a/b/data.sqlite'), 'x', { mode: 0o644 });
    writeFileSync(join(dir, 'secret'), 'x', { mode: 0o666 });
    chmodSync(dir, 0o755);
    expect(restrictDataTree(dir)).toBe(5);
    expect(modes(dir)).toEqual({
      '.': '700',
      './a': '700',
      './a/b': '700',
      './a/b/data.sqlite': '600',
      './secret': '600',
    });
    expect(restrictDataTree(dir)).toBe(0);
  });

  it('writes data files, query results and bulk import files 600 in folders 700, whatever the umask', async () => {
    // The server's umask (main.ts): the DuckDB engine makes its write-ahead log by it.
    const umask = process.umask(0o077);
    const h = await createHarness();
    try {
      await databaseAndTable(h, 'shop', 'events');
      await tableWithRows(h, 'shop', 'orders', [{ time: 1_700_000_000, amount: 3 }]);
      expect((await run(h, 'shop', 'SELECT amount FROM orders')).status).toBe('success');
      expect((await h.call('POST', '/v3/bulk_import/create/s1/shop/events')).status).toBe(200);
      await uploadRows(h, 's1', 'p1', [{ time: 1_700_000_000, a: 1 }]);
      expect((await performAndWait(h, 's1')).status).toBe('success');
      const made = modes(h.dataDir);
      expect(Object.keys(made).length).toBeGreaterThan(1);
      expect(loose(h.dataDir, made)).toEqual([]);
    } finally {
      await h.close();
      process.umask(umask);
    }
  }, 60_000);

  it('makes the control database and the secret 600 on a first start, and fixes older files at start-up', async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-modes-'));
    chmodSync(dir, 0o755);
    const key = `1/${'cd'.repeat(20)}`;
    const env = {
      SVC_DATA_DIR: dir,
      SVC_ADMIN_EMAIL: 'ops@example.test',
      SVC_ADMIN_API_KEY: key,
    };
    const running = await startServer(env);
    server = running;
    const created = await running.request('/v3/database/create/shop', {
      method: 'POST',
      headers: { authorization: `SVC1 ${key}` },
    });
    expect(created.status).toBe(200);
    // Rows in the customer database's DuckDB file (and its write-ahead log), and a query job over them.
    const headers = { authorization: `SVC1 ${key}`, 'content-type': 'application/json' };
    const posted = await running.request('/postback/v3/event/shop/events', {
      method: 'POST',
      headers,
      body: JSON.stringify({ time: 1, action: 'buy' }),
    });
    expect(posted.status).toBe(200);
    const issued = await running.request('/v3/job/issue/presto/shop', {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'SELECT count(*) FROM events' }),
    });
    const jobId = ((await issued.json()) as { job_id: string }).job_id;
    const status = async () =>
      ((await (await running.request(`/v3/job/status/${jobId}`, { headers })).json()) as { status: string }).status;
    while (!['success', 'error'].includes(await status())) await new Promise((r) => setImmediate(r));
    expect(await status()).toBe('success');
    const made = modes(dir);
    expect(Object.keys(made)).toEqual(expect.arrayContaining(['.', './control.sqlite', './secret']));
    expect(Object.keys(made).some((path) => path.endsWith('.duckdb'))).toBe(true);
    expect(loose(dir, made)).toEqual([]);
    await server.stop();

    // A data folder left by an older version, world-readable: the next start brings it to the rule.
    const widen = (path: string) => {
      const isDir = statSync(path).isDirectory();
      chmodSync(path, isDir ? 0o755 : 0o644);
      if (isDir) for (const name of readdirSync(path)) widen(join(path, name));
    };
    widen(dir);
    expect(loose(dir, modes(dir)).length).toBeGreaterThan(2);
    server = await startServer(env);
    expect(loose(dir, modes(dir))).toEqual([]);
  }, 240_000);
});
