import { Readable } from 'node:stream';
import { encodePart } from '@svc/bulk-format';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { call, type Listening, listen, ok, type TDClient } from './tdNode';

/**
 * Every method of td-client-node 0.5.0 (npm `td`), unmodified, over HTTP against the app on a real port.
 * Schedules, table import and swapTable are the table-import and schedule routes' own file
 * (tdClientSchedules.test.ts). Each test names the methods it covers.
 */

let h: Harness;
let server: Listening;
let td: TDClient;

beforeEach(async () => {
  h = await createHarness();
  server = await listen(h);
  td = server.client(h.admin.masterKey);
});
afterEach(async () => {
  await server.close();
  await h.close();
});

type Json = Record<string, unknown>;
const settled = (jobId: unknown) => h.app.services.jobs.whenSettled(Number(jobId));

describe('td-client-node', () => {
  it('serverStatus; listDatabases, createDatabase, deleteDatabase', async () => {
    expect(await ok((cb) => td.serverStatus(cb))).toEqual({ status: 'ok' });
    expect(await ok((cb) => td.createDatabase('node_db', cb))).toMatchObject({ database: 'node_db' });
    const list = await ok<{ databases: Json[] }>((cb) => td.listDatabases(cb));
    expect(list.databases.map((d) => d.name)).toContain('node_db');
    expect(list.databases[0]).toMatchObject({ count: expect.any(Number), created_at: expect.any(String) });
    expect(await ok((cb) => td.deleteDatabase('node_db', cb))).toMatchObject({ database: 'node_db' });
    const again = await call((cb) => td.deleteDatabase('node_db', cb));
    expect(again.err?.message).toBe('Resource not found');
  });

  it('createLogTable, createTable, createItemTable (refused naming log), listTables, updateSchema, deleteTable', async () => {
    await ok((cb) => td.createDatabase('node_db', cb));
    expect(await ok((cb) => td.createLogTable('node_db', 'events', cb))).toEqual({
      database: 'node_db',
      table: 'events',
      type: 'log',
    });
    expect(await ok((cb) => td.createTable('node_db', 'visits', 'log', cb))).toMatchObject({ table: 'visits' });
    const item = await call((cb) => td.createItemTable('node_db', 'items', cb));
    expect(item.err).not.toBeNull();
    expect(item.body.message).toMatch(/Table type must be 'log'/);
    await ok((cb) => td.updateSchema('node_db', 'events', { schema: JSON.stringify([['page', 'string']]) }, cb));
    const { tables } = await ok<{ tables: Json[] }>((cb) => td.listTables('node_db', cb));
    expect(tables.map((t) => t.name).sort()).toEqual(['events', 'visits']);
    const events = tables.find((t) => t.name === 'events') as Json;
    expect(JSON.parse(events.schema as string)).toEqual([['page', 'string']]);
    expect(await ok((cb) => td.deleteTable('node_db', 'visits', cb))).toMatchObject({ table: 'visits', type: 'log' });
  });

  it('bulk imports: createBulkImport, bulkImportUploadPart, listBulkImportParts, bulkImportDeletePart, performBulkImport, showBulkImport, listBulkImports, commitBulkImport, deleteBulkImport, tail', async () => {
    await ok((cb) => td.createDatabase('node_db', cb));
    await ok((cb) => td.createLogTable('node_db', 'events', cb));
    expect(await ok((cb) => td.createBulkImport('s1', 'node_db', 'events', cb))).toMatchObject({ name: 's1' });
    const part = await encodePart([
      { time: 1_700_000_000, page: '/a' },
      { time: 1_700_000_001, page: '/b' },
      { page: '/no-time' },
    ]);
    await ok((cb) => td.bulkImportUploadPart('s1', 'part1', Readable.from([part]), cb));
    await ok((cb) => td.bulkImportUploadPart('s1', 'spare', Readable.from([part]), cb));
    await ok((cb) => td.bulkImportDeletePart('s1', 'spare', cb));
    expect((await ok<{ parts: string[] }>((cb) => td.listBulkImportParts('s1', cb))).parts).toEqual(['part1']);
    const performed = await ok<{ job_id: unknown }>((cb) => td.performBulkImport('s1', cb));
    expect(await settled(performed.job_id)).toBe('success');
    const shown = await ok((cb) => td.showBulkImport('s1', cb));
    expect(shown).toMatchObject({ status: 'ready', valid_records: 2, error_records: 1, upload_frozen: true });
    const { bulk_imports } = await ok<{ bulk_imports: Json[] }>((cb) => td.listBulkImports(cb));
    expect(bulk_imports.map((b) => b.name)).toEqual(['s1']);
    await ok((cb) => td.commitBulkImport('s1', cb));
    await expect.poll(async () => (await ok((cb) => td.showBulkImport('s1', cb))).status).toBe('committed');
    const tail = await ok<string>((cb) => td.tail('node_db', 'events', 10, cb));
    expect(
      String(tail)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).page),
    ).toEqual(['/b', '/a']);
    await ok((cb) => td.deleteBulkImport('s1', cb));
    expect((await ok<{ bulk_imports: Json[] }>((cb) => td.listBulkImports(cb))).bulk_imports).toEqual([]);
  });

  it('queries: prestoQuery, trinoQuery, hiveQuery (its default type), listJobs, showJob, jobResult, kill', async () => {
    await ok((cb) => td.createDatabase('node_db', cb));
    const presto = await ok<Json>((cb) => td.prestoQuery('node_db', 'SELECT 1 AS a, 2 AS b', { priority: 1 }, cb));
    expect(presto).toEqual({ job: expect.any(String), job_id: presto.job, database: 'node_db' });
    const trino = await ok<Json>((cb) => td.trinoQuery('node_db', "SELECT 'x' AS s", cb));
    const hive = await ok<Json>((cb) => td.hiveQuery('node_db', "SELECT get_json_object('{\"k\":7}', '$.k') AS k", cb));
    for (const j of [presto, trino, hive]) expect(await settled(j.job_id)).toBe('success');
    expect(await ok((cb) => td.jobResult(String(presto.job_id), cb))).toBe('1\t2\n');
    expect(await ok((cb) => td.jobResult(String(presto.job_id), 'csv', cb))).toBe('1,2\r\n');
    expect(JSON.parse(String(await ok((cb) => td.jobResult(String(hive.job_id), 'json', cb))))).toEqual(['7']);
    const shown = await ok<Json>((cb) => td.showJob(String(trino.job_id), cb));
    expect(shown).toMatchObject({
      job_id: String(trino.job_id),
      type: 'trino',
      status: 'success',
      database: 'node_db',
    });
    expect(shown.debug).toEqual({ cmdout: expect.anything(), stderr: null });
    // listJobs sends /v3/job/list/ with a trailing slash.
    const all = await ok<{ jobs: Json[] }>((cb) => td.listJobs(cb));
    expect(all.jobs.map((j) => j.job_id)).toEqual([hive.job_id, trino.job_id, presto.job_id]);
    const page = await ok<{ jobs: Json[] }>((cb) => td.listJobs(0, 1, 'success', cb));
    expect(page.jobs.map((j) => j.job_id)).toEqual([hive.job_id, trino.job_id]);
    expect(await ok((cb) => td.kill(String(presto.job_id), cb))).toMatchObject({ former_status: 'success' });
    const bad = await call((cb) => td.prestoQuery('node_db', 'DELETE FROM x', {}, cb));
    expect(bad.err).not.toBeNull();
    expect(bad.body.status_code).toBe(400);
  });

  it('results: createResult, listResult, deleteResult; export answers 422 naming the alternative', async () => {
    await ok((cb) => td.createResult('sink', 'postgresql://u:secret@db.example.com/x', cb));
    const { results } = await ok<{ results: Json[] }>((cb) => td.listResult(cb));
    expect(results.map((r) => r.name)).toEqual(['sink']);
    expect(JSON.stringify(results)).not.toContain('secret');
    await ok((cb) => td.deleteResult('sink', '', cb));
    expect((await ok<{ results: Json[] }>((cb) => td.listResult(cb))).results).toEqual([]);
    await ok((cb) => td.createDatabase('node_db', cb));
    const exported = await call((cb) => td.export('node_db', 'events', 's3', { bucket: 'b' }, cb));
    expect(exported.err).not.toBeNull();
    expect(exported.body).toMatchObject({ status_code: 422 });
    expect(exported.body.message).toMatch(/not offered by this server: .*GET \/v3\/job\/result/);
  });

  it('a wrong key is an error the client reports, never a crash', async () => {
    const stranger = server.client('1/0000000000000000000000000000000000000000');
    const { err, body } = await call((cb) => stranger.listDatabases(cb));
    expect(err?.message).toBe('Unauthorized');
    expect(body).toMatchObject({ status_code: 401 });
  });
});
