import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage, testBackend } from '../../testing/storage';
import { insertRows, many, run, sql } from './index';

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
});
