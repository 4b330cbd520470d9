import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage, testBackend } from '../../testing/storage';
import { insertRows, insertRowsInBatches, many, run, sql } from './index';

describe(`inserting many rows in one statement (${testBackend()})`, () => {
  let dir: string;
  let storage: TestStorage;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-insert-rows-'));
    storage = await openTestStorage(dir);
    await run(storage.db, sql`CREATE TABLE t (k TEXT PRIMARY KEY, n BIGINT, note TEXT)`);
  });
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = () => many(storage.db, sql`SELECT k, n, note FROM t ORDER BY k`);

  it('binds every value as it is: quotes, braces, commas, backslashes, NULL, empty text, large numbers', async () => {
    const awkward = ["it's", '{"a":[1,2]}', 'a,b', 'back\\slash', 'NULL', '', 'ü ✓'];
    await insertRows(
      storage.db,
      'INSERT INTO t (k, n, note)',
      ['text', 'integer', 'text'],
      awkward.map((note, i) => [`k${i}`, i === 0 ? 2 ** 52 : i, note]),
    );
    await insertRows(storage.db, 'INSERT INTO t (k, n, note)', ['text', 'integer', 'text'], [['k9', null, null]]);
    expect(await rows()).toEqual([
      ...awkward.map((note, i) => ({ k: `k${i}`, n: i === 0 ? 2 ** 52 : i, note })),
      { k: 'k9', n: null, note: null },
    ]);
  });

  it('takes a conflict clause, and does nothing for no rows', async () => {
    const head = 'INSERT INTO t (k, n, note)';
    await insertRows(storage.db, head, ['text', 'integer', 'text'], [['a', 1, 'first']]);
    await insertRows(storage.db, head, ['text', 'integer', 'text'], []);
    await insertRows(
      storage.db,
      head,
      ['text', 'integer', 'text'],
      [
        ['a', 2, 'second'],
        ['b', 3, 'new'],
      ],
      'ON CONFLICT (k) DO UPDATE SET n = excluded.n, note = excluded.note',
    );
    expect(await rows()).toEqual([
      { k: 'a', n: 2, note: 'second' },
      { k: 'b', n: 3, note: 'new' },
    ]);
  });

  it('writes any number of rows from an iterable, batch by batch, each batch with the tail', async () => {
    function* made() {
      for (let i = 0; i < 7; i++) yield [`r${i}`, i, i % 2 === 0 ? 'even' : null];
    }
    await insertRowsInBatches(storage.db, 'INSERT INTO t (k, n, note)', ['text', 'integer', 'text'], made(), '', 3);
    await insertRowsInBatches(
      storage.db,
      'INSERT INTO t (k, n, note)',
      ['text', 'integer', 'text'],
      [['r6', 60, 'again']],
      'ON CONFLICT (k) DO UPDATE SET n = excluded.n, note = excluded.note',
      3,
    );
    await insertRowsInBatches(storage.db, 'INSERT INTO t (k, n, note)', ['text', 'integer', 'text'], [], '', 3);
    expect(await rows()).toEqual([
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ k: `r${i}`, n: i, note: i % 2 === 0 ? 'even' : null })),
      { k: 'r6', n: 60, note: 'again' },
    ]);
  });
});
