import { beforeAll, describe, expect, it } from 'vitest';
import { duckQueries } from '../testing/duckValues';
import { QueryRefused } from './dialect';
import { checkQueryText } from './guard';

/** Queries run as a job runs them on DuckDB, the embedded engine. */
const duck = duckQueries(0);
beforeAll(async () => {
  await duck.tables().createTable(
    't',
    [
      ['id', 'long'],
      ['tags', 'string'],
      ['attrs', 'string'],
    ],
    [
      [1, 1, '["a","b"]', '{"k":2}'],
      [2, 2, '[]', '{}'],
    ],
  );
});

describe('checkQueryText', () => {
  const refused = (sql: string) => {
    try {
      checkQueryText(sql);
    } catch (e) {
      expect(e).toBeInstanceOf(QueryRefused);
      return (e as Error).message;
    }
    return null;
  };

  it('accepts one SELECT, WITH or VALUES statement, with a trailing semicolon', () => {
    expect(refused('SELECT 1;')).toBeNull();
    expect(refused('with x as (select 1) select * from x')).toBeNull();
    expect(refused("SELECT replace(a, 'x', 'y') FROM t")).toBeNull();
    expect(refused("SELECT ';' AS semi -- ; DROP TABLE t")).toBeNull();
  });

  it('refuses empty text and more than one statement', () => {
    expect(refused('  -- nothing\n')).toMatch(/empty/);
    expect(refused('SELECT 1; SELECT 2')).toMatch(/exactly one statement: this query has 2/);
  });

  it('refuses writes, also behind a WITH clause', () => {
    expect(refused('INSERT INTO t VALUES (1)')).toMatch(/may only read data: INSERT/);
    expect(refused('DROP TABLE t')).toMatch(/may only read data: DROP/);
    expect(refused('CREATE TEMP TABLE x AS SELECT 1')).toMatch(/may only read data: CREATE/);
    expect(refused('WITH x AS (SELECT 1) DELETE FROM t')).toMatch(/may only read data: DELETE/);
  });

  it('refuses ATTACH, PRAGMA (also as table functions), transactions and VACUUM', () => {
    expect(refused("ATTACH DATABASE '/etc/passwd' AS p")).toMatch(/ATTACH is not allowed/);
    expect(refused('SELECT * FROM t; DETACH p')).toMatch(/exactly one statement/);
    expect(refused('PRAGMA user_version')).toMatch(/PRAGMA is not allowed/);
    expect(refused("SELECT * FROM pragma_table_info('t')")).toMatch(/PRAGMA is not allowed/);
    expect(refused('BEGIN')).toMatch(/Transactions/);
    expect(refused('VACUUM')).toMatch(/VACUUM/);
    expect(refused('EXPLAIN SELECT 1')).toMatch(/must be one SELECT statement/);
  });
});

describe('CROSS JOIN UNNEST', () => {
  it('reads JSON arrays and maps, keeping the column names', async () => {
    const run = (sql: string) => duck.records(sql);
    expect(await run("SELECT id, tag FROM t CROSS JOIN UNNEST(tags) AS x (tag) WHERE tag <> 'b'")).toEqual([
      { id: 1, tag: 'a' },
    ]);
    // A map's value comes out as text on DuckDB; the SQLite engine gave 2 (found when these cases moved to
    // DuckDB, decision 0053), kept visible here until it is settled.
    expect(await run('SELECT x.k, upper(x.k) AS u, v FROM t CROSS JOIN UNNEST(attrs) x(k, v)')).toEqual([
      { k: 'k', u: 'K', v: '2' },
    ]);
  });

  it('refuses WITH ORDINALITY and an UNNEST without names', async () => {
    await expect(duck.first('SELECT * FROM t CROSS JOIN UNNEST(a) WITH ORDINALITY AS x(v, n)')).rejects.toThrow(
      QueryRefused,
    );
    await expect(duck.first('SELECT * FROM t CROSS JOIN UNNEST(a)')).rejects.toThrow(
      /Name the rows and columns of UNNEST/,
    );
  });
});
