import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { unpackMultiple } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeQuery, type QueryTask } from './executeQuery';

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-query-'));
  file = join(dir, 'db.sqlite');
  const db = new Database(file);
  db.exec("CREATE TABLE t (time INTEGER, v TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b')");
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const task = (sql: string, extra: Partial<QueryTask> = {}): QueryTask => ({
  file,
  sql,
  msgpackPath: join(dir, 'out.msgpack'),
  gzipPath: join(dir, 'out.msgpack.gz'),
  nowMs: 0,
  maxResultBytes: 1024 * 1024,
  ...extra,
});

describe('executeQuery', () => {
  it('writes the rows as msgpack arrays and reports their schema and count', async () => {
    const out = await executeQuery(task('SELECT v, time * 2 AS double_time FROM t ORDER BY time'));
    expect(out).toMatchObject({
      numRecords: 2,
      schema: [
        ['v', 'varchar'],
        ['double_time', 'bigint'],
      ],
    });
    expect(unpackMultiple(readFileSync(join(dir, 'out.msgpack')))).toEqual([
      ['a', 2],
      ['b', 4],
    ]);
    expect(out.gzipBytes).toBeGreaterThan(0);
  });

  it('refuses to write even when handed a writing statement, and the data stays', async () => {
    await expect(executeQuery(task('DELETE FROM t'))).rejects.toThrow(/may only read/);
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
    db.close();
  });

  it('runs on an empty database when the file does not exist yet, without creating it', async () => {
    const missing = join(dir, 'none.sqlite');
    const out = await executeQuery(task('SELECT 1 AS one', { file: missing }));
    expect(out.numRecords).toBe(1);
    expect(existsSync(missing)).toBe(false);
  });

  it('stops a result larger than the limit', async () => {
    const big = 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10000) SELECT x FROM n';
    await expect(executeQuery(task(big, { maxResultBytes: 1000 }))).rejects.toThrow(
      'The result is larger than 1000 bytes: add a LIMIT, filter or aggregate.',
    );
  });
});
