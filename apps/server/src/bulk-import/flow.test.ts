import { gunzipSync, gzipSync } from 'node:zlib';
import { unpackMultiple } from 'msgpackr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import {
  bulkDeps,
  databaseAndTable,
  errorRecords,
  failure,
  type Json,
  ok,
  performAndWait,
  show,
  tableRows,
  upload,
  uploadRows,
} from './testing/bulkImport';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const part1 = [
  { time: 1700000000, user: 'ann', amount: 10 },
  { time: 1700000001, user: 'bob', amount: 20 },
  { time: 1700000002, user: 'cid', amount: 30 },
];
// One valid row with a new column, three with a bad time, and one more valid row.
const part2 = [
  { time: 1700000003, user: 'dee', amount: 40, coupon: 'SPRING' },
  { user: 'no_time', amount: 1 },
  { time: 'yesterday', user: 'text_time', amount: 2 },
  { time: 1700000004.5, user: 'fraction', amount: 3 },
  { time: 1700000005, user: 'eve', amount: 50, coupon: null },
];

/** Holds a running perform at its first crash point until `release` is called. */
function holdPerform() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  bulkDeps(h).bulkImport = { crashPoint: (point) => (point === 'perform:staging' ? held : undefined) };
  return release;
}

describe('bulk import, the whole flow through HTTP', () => {
  it('creates, uploads, performs, reports errors, commits and reads the rows back in every format', async () => {
    await databaseAndTable(h, 'shop', 'events');
    expect(await ok(h.call('POST', '/v3/bulk_import/create/s1/shop/events'))).toEqual({
      name: 's1',
      bulk_import: 's1',
    });
    expect(await show(h, 's1')).toEqual({
      name: 's1',
      database: 'shop',
      table: 'events',
      status: 'uploading',
      upload_frozen: false,
      job_id: null,
      valid_records: null,
      error_records: null,
      valid_parts: null,
      error_parts: null,
    });

    expect(await uploadRows(h, 's1', 'part1', part1)).toEqual({ name: 's1', bulk_import: 's1' });
    await uploadRows(h, 's1', 'part2', part2);
    expect(await ok(h.call('GET', '/v3/bulk_import/list_parts/s1'))).toEqual({
      name: 's1',
      bulk_import: 's1',
      parts: ['part1', 'part2'],
    });
    await ok(h.call('POST', '/v3/bulk_import/freeze/s1'));
    expect((await show(h, 's1')).upload_frozen).toBe(true);

    // Perform runs as a job; while it runs the session is performing and its counts are null.
    const release = holdPerform();
    const performed = await ok(h.call('POST', '/v3/bulk_import/perform/s1'));
    expect(performed).toEqual({ name: 's1', bulk_import: 's1', job_id: expect.any(Number) });
    const jobId = performed.job_id as number;
    await h.app.services.jobs.whenStarted(jobId);
    expect(await show(h, 's1')).toMatchObject({
      status: 'performing',
      job_id: jobId,
      valid_records: null,
      error_parts: null,
    });
    expect((await ok(h.call('GET', `/v3/job/status/${jobId}`))).status).toBe('running');
    await failure(h.call('GET', '/v3/bulk_import/error_records/s1'), 409);
    release();
    expect(await h.app.services.jobs.whenSettled(jobId)).toBe('success');
    const job = await ok(h.call('GET', `/v3/job/show/${jobId}`));
    expect(job).toMatchObject({ job_id: String(jobId), type: 'bulk_import', status: 'success', database: 'shop' });

    expect(await show(h, 's1')).toEqual({
      name: 's1',
      database: 'shop',
      table: 'events',
      status: 'ready',
      upload_frozen: true,
      job_id: jobId,
      valid_records: 5,
      error_records: 3,
      valid_parts: 1,
      error_parts: 1,
    });
    expect(await errorRecords(h, 's1')).toEqual([part2[1], part2[2], part2[3]]);
    // Nothing reaches the table before commit.
    expect(await tableRows(h, 'shop', 'events')).toEqual([]);

    expect(await ok(h.call('POST', '/v3/bulk_import/commit/s1'))).toEqual({ name: 's1', bulk_import: 's1' });
    expect((await show(h, 's1')).status).toBe('committed');
    const list = await ok(h.call('GET', '/v3/bulk_import/list'));
    expect(list.bulk_imports).toEqual([expect.objectContaining({ name: 's1', status: 'committed', valid_records: 5 })]);

    // Committing again writes nothing twice.
    await ok(h.call('POST', '/v3/bulk_import/commit/s1'));
    const table = await ok(h.call('GET', '/v3/table/show/shop/events'));
    expect(table.count).toBe(5);
    expect(JSON.parse(table.schema as string)).toEqual([
      ['user', 'string'],
      ['amount', 'long'],
      ['coupon', 'string'],
    ]);
    expect(await tableRows(h, 'shop', 'events')).toEqual([
      { time: 1700000000, user: 'ann', amount: 10, coupon: null },
      { time: 1700000001, user: 'bob', amount: 20, coupon: null },
      { time: 1700000002, user: 'cid', amount: 30, coupon: null },
      { time: 1700000003, user: 'dee', amount: 40, coupon: 'SPRING' },
      { time: 1700000005, user: 'eve', amount: 50, coupon: null },
    ]);

    // The rows read back through a query job, in every result format.
    const issued = await ok(
      h.call('POST', '/v3/job/issue/presto/shop', {
        form: { query: 'SELECT time, "user", amount, coupon FROM events ORDER BY time' },
      }),
    );
    const queryId = issued.job_id as string;
    expect(await h.app.services.jobs.whenSettled(Number(queryId))).toBe('success');
    const result = async (format: string) => {
      const res = await h.call('GET', `/v3/job/result/${queryId}?format=${format}`);
      expect(res.status, format).toBe(200);
      return res;
    };
    const rows = [
      [1700000000, 'ann', 10, null],
      [1700000001, 'bob', 20, null],
      [1700000002, 'cid', 30, null],
      [1700000003, 'dee', 40, 'SPRING'],
      [1700000005, 'eve', 50, null],
    ];
    const jsonLines = (await (await result('json&header=true')).text()).trimEnd().split('\n');
    expect(jsonLines.map((l) => JSON.parse(l))).toEqual([['time', 'user', 'amount', 'coupon'], ...rows]);
    expect(await (await result('csv')).text()).toBe(
      '1700000000,ann,10,\r\n1700000001,bob,20,\r\n1700000002,cid,30,\r\n1700000003,dee,40,SPRING\r\n1700000005,eve,50,\r\n',
    );
    expect((await (await result('tsv')).text()).split('\n')[3]).toBe('1700000003\tdee\t40\tSPRING');
    expect(unpackMultiple(new Uint8Array(await (await result('msgpack')).arrayBuffer()))).toEqual(rows);
    const gz = await result('msgpack.gz');
    expect(gz.headers.get('content-encoding')).toBeNull();
    expect(unpackMultiple(gunzipSync(new Uint8Array(await gz.arrayBuffer())))).toEqual(rows);
  });

  it('runs the same flow with a write-only key, into its own account only', async () => {
    const key = h.admin.writeOnlyKey;
    await databaseAndTable(h, 'shop', 'events');
    await ok(h.call('POST', '/v3/bulk_import/create/w1/shop/events', { key }));
    await uploadRows(h, 'w1', 'p', part1, key);
    const { status } = await performAndWait(h, 'w1', key);
    expect(status).toBe('success');
    await ok(h.call('POST', '/v3/bulk_import/commit/w1', { key }));
    expect((await show(h, 'w1', key)).status).toBe('committed');
    expect(await tableRows(h, 'shop', 'events')).toHaveLength(3);
    // The key imports data and nothing else: not the account's session list, nor the refused records.
    await failure(h.call('GET', '/v3/table/show/shop/events', { key }), 403);
    await failure(h.call('GET', '/v3/bulk_import/list', { key }), 403);
    await failure(h.call('GET', '/v3/bulk_import/error_records/w1', { key }), 403);

    // Another account's keys, master or write-only, see none of it.
    const other = await h.newAccount('Other');
    for (const k of [other.masterKey, other.writeOnlyKey]) {
      await failure(h.call('GET', '/v3/bulk_import/show/w1', { key: k }), 404);
      await failure(h.call('POST', '/v3/bulk_import/create/x1/shop/events', { key: k }), 404);
    }
    expect((await ok(h.call('GET', '/v3/bulk_import/list', { key: other.masterKey }))).bulk_imports).toEqual([]);
  });

  it('serves an empty gzip as the error records of a clean perform', async () => {
    await databaseAndTable(h, 'shop', 'events');
    await ok(h.call('POST', '/v3/bulk_import/create/clean/shop/events'));
    expect(await errorRecords(h, 'clean')).toEqual([]);
    await uploadRows(h, 'clean', 'p', part1);
    await performAndWait(h, 'clean');
    expect(await show(h, 'clean')).toMatchObject({
      valid_records: 3,
      error_records: 0,
      valid_parts: 1,
      error_parts: 0,
    });
    expect(await errorRecords(h, 'clean')).toEqual([]);
  });

  it('imports into a table that already has rows, adding only the new columns', async () => {
    await databaseAndTable(h, 'shop', 'events');
    await ok(h.call('POST', '/v3/bulk_import/create/a/shop/events'));
    await uploadRows(h, 'a', 'p', part1);
    await performAndWait(h, 'a');
    await ok(h.call('POST', '/v3/bulk_import/commit/a'));
    await ok(h.call('POST', '/v3/bulk_import/create/b/shop/events'));
    await uploadRows(h, 'b', 'p', [{ time: 1800000000, user: 'fay', score: 1.5, tags: ['x', 'y'] }]);
    await performAndWait(h, 'b');
    await ok(h.call('POST', '/v3/bulk_import/commit/b'));
    const table = (await ok(h.call('GET', '/v3/table/show/shop/events'))) as Json;
    expect(table.count).toBe(4);
    expect(JSON.parse(table.schema as string)).toEqual([
      ['user', 'string'],
      ['amount', 'long'],
      ['score', 'double'],
      ['tags', 'array<string>'],
    ]);
  });

  it('takes a part whose keys and text values are msgpack bin, as td bulk_import:prepare_parts writes them', async () => {
    await databaseAndTable(h, 'shop', 'rb_parts');
    await ok(h.call('POST', '/v3/bulk_import/create/rb1/shop/rb_parts'));
    const bin = (text: string) => {
      const bytes = Buffer.from(text, 'utf8');
      return [0xc4, bytes.length, ...bytes];
    };
    // Two records {time: 1700000000 + i, user: "ann"/"bøb"} with every string written as bin 8.
    const records = ['ann', 'bøb'].map((user, i) => [
      0x82,
      ...bin('time'),
      0xce,
      ...Buffer.from((1700000000 + i).toString(16).padStart(8, '0'), 'hex'),
      ...bin('user'),
      ...bin(user),
    ]);
    await ok(upload(h, 'rb1', 'part1', gzipSync(Buffer.from(records.flat()))));
    await ok(h.call('POST', '/v3/bulk_import/freeze/rb1'));
    expect((await performAndWait(h, 'rb1')).status).toBe('success');
    expect(await show(h, 'rb1')).toMatchObject({ valid_records: 2, error_records: 0 });
    await ok(h.call('POST', '/v3/bulk_import/commit/rb1'));
    expect(await tableRows(h, 'shop', 'rb_parts')).toEqual([
      { time: 1700000000, user: 'ann' },
      { time: 1700000001, user: 'bøb' },
    ]);
  });
});
