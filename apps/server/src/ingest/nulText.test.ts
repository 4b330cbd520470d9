import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseAndTable, ok, performAndWait, tableRows, uploadRows } from '../bulk-import/testing/bulkImport';
import { createHarness, type Harness } from '../testing/harness';

/**
 * Text holding the NUL character (U+0000) through every way in: postback, the records API and bulk import.
 * Each is accepted on both backends; the embedded engine keeps the character, PostgreSQL (whose text types
 * refuse it, 22021) stores the text without it. Nothing answers 500 and no write is lost.
 */
describe('text with a NUL character', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    await databaseAndTable(h, 'web', 'imported');
  });
  afterEach(() => h.close());

  const sent = 'before\u0000after\u0000';
  const stored = () => (h.deps.storage.backend === 'postgres' ? 'beforeafter' : sent);
  const texts = async (table: string) => (await tableRows(h, 'web', table)).map((r) => [r.s, r.plain]);

  it('is accepted by postback', async () => {
    const res = await h.call('POST', '/postback/v3/event/web/postback', {
      key: null,
      body: JSON.stringify({ s: sent, plain: 'x' }),
      headers: { 'content-type': 'application/json', 'x-svc-write-key': h.admin.writeOnlyKey },
    });
    expect(res.status, await res.text()).toBe(200);
    expect(await texts('postback')).toEqual([[stored(), 'x']]);
  });

  it('is accepted by the records API, with the rest of its batch', async () => {
    const res = await h.call('POST', '/web/records', {
      key: h.admin.writeOnlyKey,
      body: JSON.stringify({
        events: [
          { s: sent, plain: 'x', time: 1 },
          { s: 'clean', plain: 'y', time: 2 },
        ],
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status, await res.text()).toBe(200);
    expect(await texts('records')).toEqual([
      [stored(), 'x'],
      ['clean', 'y'],
    ]);
  });

  it('is accepted by bulk import, as a valid record', async () => {
    await ok(h.call('POST', '/v3/bulk_import/create/s1/web/imported'));
    await uploadRows(h, 's1', 'p1', [
      { time: 1, s: sent, plain: 'x' },
      { time: 2, s: 'clean', plain: 'y' },
    ]);
    const performed = await performAndWait(h, 's1');
    expect(performed.status).toBe('success');
    expect(await ok(h.call('GET', '/v3/bulk_import/show/s1'))).toMatchObject({ valid_records: 2, error_records: 0 });
    await ok(h.call('POST', '/v3/bulk_import/commit/s1'));
    expect(await texts('imported')).toEqual([
      [stored(), 'x'],
      ['clean', 'y'],
    ]);
  });
});
