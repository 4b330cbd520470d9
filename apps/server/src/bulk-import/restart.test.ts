import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { many, run, sql } from '../platform/storage';
import { CRASH_WORKER } from '../platform/workerPool';
import { createHarness, type Harness } from '../testing/harness';
import type { CrashPoint } from './options';
import {
  bulkDeps,
  databaseAndTable,
  failure,
  ok,
  performAndWait,
  show,
  tableRows,
  uploadRows,
} from './testing/bulkImport';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await databaseAndTable(h, 'shop', 'events');
  await ok(h.call('POST', '/v3/bulk_import/create/s1/shop/events'));
  await uploadRows(h, 's1', 'p1', rows(0, 300));
  await uploadRows(h, 's1', 'p2', [...rows(300, 200), { user: 'no time' }]);
});
afterEach(() => h.close());

const rows = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ time: 1700000000 + from + i, n: from + i, tag: i % 2 ? 'odd' : 'even' }));

/** A crash at `point`: the hook throws there, as if the process died on that line. */
function crashAt(target: CrashPoint) {
  bulkDeps(h).bulkImport = {
    crashPoint: (point) => {
      if (point === target) throw new Error(`simulated crash at ${point}`);
    },
  };
}

/** The perform folders holding files: on disk, or kept in the database for every node (PostgreSQL). */
async function performDirs(): Promise<string[]> {
  const root = join(h.dataDir, 'bulk_import', String(h.admin.accountId));
  const local = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /perform-[^/]+\/.+$/.test(f))
    .map((f) => join(root, f));
  const kept = await many<{ path: string }>(h.deps.storage.db, sql`SELECT DISTINCT path FROM bulk_import_files`);
  const dirs = [...local, ...kept.map((r) => r.path)].flatMap((f) => /perform-[^/]+(?=\/)/.exec(f) ?? []);
  return [...new Set(dirs)];
}

/** The table's rows are exactly the 500 valid ones, each once. */
async function expectEveryRowOnce() {
  const stored = await tableRows(h, 'shop', 'events');
  expect(stored).toHaveLength(500);
  expect(new Set(stored.map((r) => r.n)).size).toBe(500);
  expect((await ok(h.call('GET', '/v3/table/show/shop/events'))).count).toBe(500);
}

describe('bulk import across a restart', () => {
  it('a restart in the middle of a perform loses no part and publishes nothing half done', async () => {
    // The perform stops for good after its first part, as a process that died there would.
    bulkDeps(h).bulkImport = { crashPoint: () => new Promise<void>(() => {}) };
    const { job_id: jobId } = await ok(h.call('POST', '/v3/bulk_import/perform/s1'));
    await h.app.services.jobs.whenStarted(jobId as number);
    await new Promise((r) => setImmediate(r));
    expect((await show(h, 's1')).status).toBe('performing');

    h = await h.restart();
    const job = await ok(h.call('GET', `/v3/job/show/${jobId}`));
    expect(job.status).toBe('error');
    expect((job.debug as { stderr: string }).stderr).toMatch(/restarted/);
    expect(await show(h, 's1')).toMatchObject({
      status: 'uploading',
      upload_frozen: true,
      job_id: jobId,
      valid_records: null,
      error_records: null,
    });
    expect((await ok(h.call('GET', '/v3/bulk_import/list_parts/s1'))).parts).toEqual(['p1', 'p2']);
    expect(await tableRows(h, 'shop', 'events')).toEqual([]);

    expect((await performAndWait(h, 's1')).status).toBe('success');
    expect(await show(h, 's1')).toMatchObject({ status: 'ready', valid_records: 500, error_records: 1 });
    expect(await performDirs()).toHaveLength(1);
    await ok(h.call('POST', '/v3/bulk_import/commit/s1'));
    await expectEveryRowOnce();
  });

  it('a crash while commit writes rows rolls them back, and the restart lands each row once', async () => {
    await performAndWait(h, 's1');
    crashAt('commit:rows-written');
    await failure(h.call('POST', '/v3/bulk_import/commit/s1'), 500);
    expect((await show(h, 's1')).status).toBe('committing');
    expect(await tableRows(h, 'shop', 'events')).toEqual([]);
    expect((await ok(h.call('GET', '/v3/table/show/shop/events'))).count).toBe(0);

    h = await h.restart();
    expect((await show(h, 's1')).status).toBe('committed');
    await expectEveryRowOnce();
  });

  it('a crash after the rows are durable but before the session says so writes nothing twice', async () => {
    await performAndWait(h, 's1');
    crashAt('commit:data-committed');
    await failure(h.call('POST', '/v3/bulk_import/commit/s1'), 500);
    expect((await show(h, 's1')).status).toBe('committing');
    expect(await tableRows(h, 'shop', 'events')).toHaveLength(500);

    h = await h.restart();
    expect((await show(h, 's1')).status).toBe('committed');
    await expectEveryRowOnce();
    // And committing once more still changes nothing.
    await ok(h.call('POST', '/v3/bulk_import/commit/s1'));
    await expectEveryRowOnce();
  });

  it('losing what holds the commit transaction (a worker thread, a database connection) leaves nothing written and the session committable', async () => {
    await performAndWait(h, 's1');
    bulkDeps(h).bulkImport = {
      crashPoint: async (point) => {
        if (point !== 'commit:rows-written') return;
        // SQLite: the worker thread writing the file dies. PostgreSQL: the server ends the connection that
        // holds the transaction (the only one idle inside a transaction now), as a database restart would.
        if (h.deps.storage.backend === 'sqlite') throw new Error(CRASH_WORKER);
        await run(
          h.deps.storage.db,
          sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
               WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()`,
        );
      },
    };
    const message = await failure(h.call('POST', '/v3/bulk_import/commit/s1'), 503);
    expect(message).toBe(
      'The commit of "s1" was interrupted before its rows were saved; nothing was written. Commit it again.',
    );
    expect((await show(h, 's1')).status).toBe('committing');
    expect(await tableRows(h, 'shop', 'events')).toEqual([]);
    expect((await ok(h.call('GET', '/v3/table/show/shop/events'))).count).toBe(0);
    // The same server, a new worker: the commit goes through, each row once.
    bulkDeps(h).bulkImport = {};
    await ok(h.call('POST', '/v3/bulk_import/commit/s1'));
    expect((await show(h, 's1')).status).toBe('committed');
    await expectEveryRowOnce();
  });

  it('a commit retried by the client after a failure lands each row once', async () => {
    await performAndWait(h, 's1');
    crashAt('commit:data-committed');
    await failure(h.call('POST', '/v3/bulk_import/commit/s1'), 500);
    bulkDeps(h).bulkImport = {};
    await ok(h.call('POST', '/v3/bulk_import/commit/s1'));
    expect((await show(h, 's1')).status).toBe('committed');
    await expectEveryRowOnce();
  });
});
