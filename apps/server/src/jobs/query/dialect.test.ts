import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { QueryRefused, translate } from './dialect';
import { checkPrepared, checkQueryText } from './guard';
import { registerFunctions } from './sqlFunctions';

describe('translate', () => {
  it('maps CAST type names SQLite misreads to Presto casts, keeping text casts native', () => {
    expect(translate('SELECT CAST(x AS varchar) FROM t', 'db')).toBe('SELECT CAST(x AS TEXT) FROM t');
    expect(translate('SELECT CAST(x AS bigint)', 'db')).toBe("SELECT presto_cast(x, 'bigint')");
    expect(translate('SELECT TRY_CAST(x AS double)', 'db')).toBe("SELECT presto_try_cast(x, 'double')");
    expect(translate('SELECT cast(x as DECIMAL(10, 2))', 'db')).toBe("SELECT presto_cast(x, 'double')");
    expect(translate('SELECT CAST(CAST(a AS varchar(3)) AS bigint)', 'db')).toBe(
      "SELECT presto_cast(CAST(a AS TEXT), 'bigint')",
    );
    expect(translate('SELECT CAST(f(a, b) AS timestamp)', 'db')).toBe("SELECT presto_cast(f(a, b), 'timestamp')");
  });

  it('refuses casts to arrays and maps, which are JSON text here', () => {
    expect(() => translate('SELECT CAST(x AS array(varchar))', 'db')).toThrow(QueryRefused);
  });

  it('turns ARRAY[...] into json_array(...) and drops DATE/TIMESTAMP before literals', () => {
    expect(translate('SELECT ARRAY[1, ARRAY[2]]', 'db')).toBe('SELECT json_array(1, json_array(2))');
    expect(translate("SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00'", 'db')).toBe(
      "SELECT '2024-01-01', '2024-01-01 00:00:00'",
    );
  });

  it("drops the job's own database as a table qualifier, and only that one", () => {
    expect(translate('SELECT * FROM web.events e JOIN "web"."users" u ON e.id = u.id', 'web')).toBe(
      'SELECT * FROM events e JOIN "users" u ON e.id = u.id',
    );
    expect(translate('SELECT * FROM other.events', 'web')).toBe('SELECT * FROM other.events');
  });

  it('leaves strings, quoted identifiers and comments alone', () => {
    const sql = `SELECT 'CAST(x AS bigint)', "ARRAY[1]" -- CAST(y AS bigint)\nFROM t`;
    expect(translate(sql, 'db')).toBe(sql);
  });

  it('produces SQL SQLite runs', () => {
    const db = new Database(':memory:');
    const { v } = db.prepare(translate("SELECT CAST('7' AS varchar) || DATE '2024-01-01' AS v", 'db')).get() as {
      v: string;
    };
    db.close();
    expect(v).toBe('72024-01-01');
  });
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
  it('reads JSON arrays and maps through presto_unnest, keeping the column names', () => {
    expect(translate('SELECT id, tag FROM t CROSS JOIN UNNEST(tags) AS x(tag)', 'db')).toBe(
      'SELECT id, x.unnest_value AS tag FROM t CROSS JOIN presto_unnest(tags) AS x',
    );
    const db = new Database(':memory:');
    registerFunctions(db, 0);
    db.exec(`CREATE TABLE t (id, tags, attrs); INSERT INTO t VALUES (1, '["a","b"]', '{"k":2}'), (2, '[]', '{}')`);
    const run = (sql: string) => db.prepare(translate(sql, 'db')).all();
    expect(run("SELECT id, tag FROM t CROSS JOIN UNNEST(tags) AS x (tag) WHERE tag <> 'b'")).toEqual([
      { id: 1, tag: 'a' },
    ]);
    expect(run('SELECT x.k, upper(x.k) AS u, v FROM t CROSS JOIN UNNEST(attrs) x(k, v)')).toEqual([
      { k: 'k', u: 'K', v: 2 },
    ]);
    db.close();
  });

  it('refuses WITH ORDINALITY and an UNNEST without names', () => {
    const refused = (sql: string) => () => translate(sql, 'db');
    expect(refused('SELECT * FROM t CROSS JOIN UNNEST(a) WITH ORDINALITY AS x(v, n)')).toThrow(QueryRefused);
    expect(refused('SELECT * FROM t CROSS JOIN UNNEST(a)')).toThrow(/Name the rows and columns of UNNEST/);
  });
});

describe('checkPrepared', () => {
  it('refuses statements SQLite compiles as writes or without rows', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (a)');
    expect(() => checkPrepared(db.prepare('SELECT a FROM t'))).not.toThrow();
    expect(() => checkPrepared(db.prepare('INSERT INTO t VALUES (1)'))).toThrow(/may only read/);
    expect(() => checkPrepared(db.prepare('INSERT INTO t VALUES (1) RETURNING a'))).toThrow(/may only read/);
    expect(() => checkPrepared(db.prepare('CREATE INDEX i ON t (a)'))).toThrow(/may only read/);
    expect(() => checkPrepared(db.prepare('BEGIN'))).toThrow(/must return rows/);
    db.close();
  });
});
