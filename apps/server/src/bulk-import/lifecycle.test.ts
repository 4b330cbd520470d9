import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { many, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import {
  databaseAndTable,
  errorRecords,
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
});
afterEach(() => h.close());

const rows = (n: number, from = 1700000000) => Array.from({ length: n }, (_, i) => ({ time: from + i, n: i }));

/** Every part file of every session: on disk, and kept in the database for every node (PostgreSQL). */
async function partFiles(): Promise<string[]> {
  let local: string[] = [];
  try {
    local = readdirSync(join(h.dataDir, 'bulk_import'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.includes('/parts/'))
      .map((f) => `bulk_import/${f}`);
  } catch {}
  const kept = await many<{ path: string }>(
    h.deps.storage.db,
    sql`SELECT DISTINCT path FROM bulk_import_files WHERE path LIKE ${'%/parts/%'}`,
  );
  return [...new Set([...local, ...kept.map((r) => r.path)])];
}

describe('bulk import session life cycle', () => {
  it('refuses a second session of the same name, and sessions for a missing database or table', async () => {
    expect(await failure(h.call('POST', '/v3/bulk_import/create/s1/shop/events'), 409)).toMatch(/already exists/);
    await failure(h.call('POST', '/v3/bulk_import/create/s2/nope_db/events'), 404);
    await failure(h.call('POST', '/v3/bulk_import/create/s2/shop/nope_table'), 404);
  });

  it('refuses session and part names with quotes, slashes or 300 characters', async () => {
    expect(await failure(h.call('POST', "/v3/bulk_import/create/it's/shop/events"), 400)).toMatch(/letters, digits/);
    expect(await failure(h.call('POST', `/v3/bulk_import/create/${'s'.repeat(300)}/shop/events`), 400)).toMatch(
      /1 to 255 characters/,
    );
    await failure(h.call('POST', '/v3/bulk_import/create/ok_name/Shop-DB/events'), 400);
    const res = await h.call('PUT', `/v3/bulk_import/upload_part/s1/${'p'.repeat(300)}`, { body: new Uint8Array(1) });
    expect(res.status).toBe(400);
    await failure(h.call('PUT', '/v3/bulk_import/upload_part/s1/a%2Fb', { body: new Uint8Array(1) }), 400);
    await failure(h.call('PUT', '/v3/bulk_import/upload_part/s1/a%01b', { body: new Uint8Array(1) }), 400);
    await failure(h.call('GET', '/v3/bulk_import/show/nope'), 404);
  });

  it('replaces a part uploaded again under the same name', async () => {
    await uploadRows(h, 's1', 'p1', rows(5));
    await uploadRows(h, 's1', 'p1', rows(2, 1800000000));
    expect((await ok(h.call('GET', '/v3/bulk_import/list_parts/s1'))).parts).toEqual(['p1']);
    expect(await partFiles()).toHaveLength(1);
    await performAndWait(h, 's1');
    expect(await show(h, 's1')).toMatchObject({ valid_records: 2, valid_parts: 1 });
  });

  it('deletes a part with PUT or POST; a missing part is 404', async () => {
    await uploadRows(h, 's1', 'p1', rows(1));
    await uploadRows(h, 's1', 'p2', rows(1));
    await ok(h.call('PUT', '/v3/bulk_import/delete_part/s1/p1'));
    await ok(h.call('POST', '/v3/bulk_import/delete_part/s1/p2'));
    expect((await ok(h.call('GET', '/v3/bulk_import/list_parts/s1'))).parts).toEqual([]);
    expect(await partFiles()).toEqual([]);
    await failure(h.call('POST', '/v3/bulk_import/delete_part/s1/p1'), 404);
  });

  it('takes no uploads while frozen, and takes them again once unfrozen', async () => {
    await ok(h.call('POST', '/v3/bulk_import/freeze/s1'));
    const message = await failure(
      h.call('PUT', '/v3/bulk_import/upload_part/s1/p1', { body: new Uint8Array([0x1f, 0x8b]) }),
      409,
    );
    expect(message).toMatch(/frozen: unfreeze it/);
    await ok(h.call('POST', '/v3/bulk_import/unfreeze/s1'));
    expect((await show(h, 's1')).upload_frozen).toBe(false);
    await uploadRows(h, 's1', 'p1', rows(1));
  });

  it('refuses to perform without parts, and to commit before a perform', async () => {
    expect(await failure(h.call('POST', '/v3/bulk_import/perform/s1'), 422)).toMatch(/has no parts/);
    expect(await failure(h.call('POST', '/v3/bulk_import/commit/s1'), 409)).toMatch(/perform it and wait/);
    await failure(h.call('POST', '/v3/bulk_import/perform/s1?priority=7'), 400);
  });

  it('performs again from ready, and an unfrozen ready session goes back to uploading', async () => {
    await uploadRows(h, 's1', 'p1', [{ time: 1 }, { nope: 1 }]);
    await performAndWait(h, 's1');
    const first = await show(h, 's1');
    const again = await performAndWait(h, 's1');
    expect(again.status).toBe('success');
    expect(again.jobId).not.toBe(first.job_id);
    expect(await show(h, 's1')).toMatchObject({ status: 'ready', valid_records: 1, error_records: 1 });
    await ok(h.call('POST', '/v3/bulk_import/unfreeze/s1'));
    expect(await show(h, 's1')).toMatchObject({
      status: 'uploading',
      upload_frozen: false,
      valid_records: null,
      error_records: null,
    });
    await failure(h.call('POST', '/v3/bulk_import/commit/s1'), 409);
  });

  it('takes no uploads, freezes or deletes of parts once committed, and deletes the session', async () => {
    await uploadRows(h, 's1', 'p1', rows(3));
    await performAndWait(h, 's1');
    await ok(h.call('POST', '/v3/bulk_import/commit/s1'));
    await failure(h.call('PUT', '/v3/bulk_import/upload_part/s1/p2', { body: new Uint8Array(1) }), 409);
    await failure(h.call('POST', '/v3/bulk_import/delete_part/s1/p1'), 409);
    await failure(h.call('POST', '/v3/bulk_import/perform/s1'), 409);
    await failure(h.call('POST', '/v3/bulk_import/unfreeze/s1'), 409);
    // The parts are gone from disk after commit; their names stay listed.
    expect(await partFiles()).toEqual([]);
    expect((await ok(h.call('GET', '/v3/bulk_import/list_parts/s1'))).parts).toEqual(['p1']);
    await ok(h.call('POST', '/v3/bulk_import/delete/s1'));
    await failure(h.call('GET', '/v3/bulk_import/show/s1'), 404);
    expect(readdirSync(join(h.dataDir, 'bulk_import', String(h.admin.accountId)))).toEqual([]);
    // The rows stay in the table.
    expect(await tableRows(h, 'shop', 'events')).toHaveLength(3);
  });

  it('commits into a table deleted meanwhile with a 404, and stays ready', async () => {
    await uploadRows(h, 's1', 'p1', rows(3));
    await performAndWait(h, 's1');
    await ok(h.call('POST', '/v3/table/delete/shop/events'));
    await failure(h.call('POST', '/v3/bulk_import/commit/s1'), 404);
    expect((await show(h, 's1')).status).toBe('ready');
  });

  it('keeps the error records of a committed session', async () => {
    await uploadRows(h, 's1', 'p1', [
      { time: 1, a: 1 },
      { time: 'x', a: 2 },
    ]);
    await performAndWait(h, 's1');
    await ok(h.call('POST', '/v3/bulk_import/commit/s1'));
    expect(await errorRecords(h, 's1')).toEqual([{ time: 'x', a: 2 }]);
  });
});
