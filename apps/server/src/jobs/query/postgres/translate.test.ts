import { describe, expect, it } from 'vitest';
import { QueryRefused } from '../tokens';
import { translateToPostgres } from './translate';

const NOW = Date.UTC(2024, 2, 15, 10, 30);
const pg = (sql: string, database = 'web') => translateToPostgres(sql, { database, nowMs: NOW });

function refusal(sql: string): string {
  try {
    pg(sql);
  } catch (e) {
    expect(e).toBeInstanceOf(QueryRefused);
    return (e as Error).message;
  }
  throw new Error(`expected ${sql} to be refused`);
}

describe('translateToPostgres', () => {
  it('folds literal TD_TIME_RANGE and TD_INTERVAL bounds into comparisons the time index serves', () => {
    expect(pg("SELECT 1 FROM t WHERE TD_TIME_RANGE(time, '2024-01-01', '2024-01-02', 'JST')")).toBe(
      'SELECT 1 FROM t WHERE ((time) >= 1704034800 AND (time) < 1704121200)',
    );
    expect(pg("SELECT 1 FROM t WHERE TD_INTERVAL(time, '-1d')")).toBe(
      'SELECT 1 FROM t WHERE ((time) >= 1710374400 AND (time) < 1710460800)',
    );
  });

  it('keeps CTE column lists, aliases, strings, quoted names and comments as they are', () => {
    const sql = `WITH n(x) AS (SELECT 1) SELECT 'if(1)', "lower"."x" -- set_config(1)\nFROM n AS m(y)`;
    expect(pg(sql)).toBe(sql);
  });

  it("drops the job's own database as a qualifier and turns backticks into double quotes", () => {
    expect(pg('SELECT `a b` FROM web.events JOIN "web"."users" u ON true')).toBe(
      'SELECT "a b" FROM events JOIN "users" u ON true',
    );
    expect(pg('SELECT * FROM other.events')).toBe('SELECT * FROM other.events');
  });

  it('refuses functions outside the dialect and qualified calls', () => {
    expect(refusal("SELECT set_config('role', 'x', true)")).toMatch(/set_config is not supported/);
    expect(refusal("SELECT svc_fn.zone('JST')")).toMatch(/Qualified function names are not allowed/);
    expect(refusal('SELECT x FROM generate_series(1, 3) g(x)')).toMatch(/generate_series is not supported/);
  });

  it('checks functions that hide behind a column definition list, dollar quotes or E strings', () => {
    expect(refusal("SELECT * FROM json_to_record('{}') AS (a int)")).toMatch(/json_to_record is not supported/);
    expect(refusal("SELECT * FROM t, set_config('a', 'b', true) AS (a int)")).toMatch(/set_config is not supported/);
    expect(refusal("SELECT $$'$$, set_config('role', 'x', true), $$'$$")).toMatch(/Dollar-quoted text/);
    expect(refusal("SELECT E'\\'', set_config('role', 'x', true), ''")).toMatch(/E'…' strings are not supported/);
    const ctes = 'WITH a(x) AS (SELECT 1), b AS MATERIALIZED (SELECT 2), c(y) AS (SELECT 3) SELECT * FROM a, b, c;';
    expect(pg(ctes)).toBe(ctes.slice(0, -1));
  });

  it("refuses the system catalogs, which list other customers' schemas and tables", () => {
    expect(refusal('SELECT relname FROM pg_class')).toMatch(/System catalogs \(pg_class\) cannot be read/);
    expect(refusal('SELECT * FROM "pg_catalog"."pg_namespace"')).toMatch(/System catalogs \(pg_catalog\)/);
    expect(refusal('SELECT table_name FROM information_schema.tables')).toMatch(/information_schema/);
  });

  it("refuses the :: cast, whose regclass form tells whether another schema's table exists", () => {
    expect(refusal("SELECT 'cdb_2.events'::regclass")).toMatch(/The :: cast is not Presto SQL: write CAST/);
    expect(refusal("SELECT 'cdb_2'::regnamespace::oid")).toMatch(/The :: cast/);
    expect(refusal('SELECT x::text FROM t')).toMatch(/The :: cast/);
    // A colon inside a string, or a single one, is not the operator.
    expect(pg("SELECT '10::20' AS a FROM t")).toBe("SELECT '10::20' AS a FROM t");
  });

  it('sorts NULLs as DuckDB does: first ascending, last descending, unless the query says where', () => {
    expect(pg('SELECT x FROM t ORDER BY x')).toBe('SELECT x FROM t ORDER BY x NULLS FIRST');
    expect(pg('SELECT x FROM t ORDER BY x DESC, y ASC, 2 LIMIT 3;')).toBe(
      'SELECT x FROM t ORDER BY x DESC NULLS LAST, y ASC NULLS FIRST, 2 NULLS FIRST LIMIT 3',
    );
    expect(pg('SELECT x FROM t ORDER BY x DESC NULLS FIRST, y NULLS LAST')).toBe(
      'SELECT x FROM t ORDER BY x DESC NULLS FIRST, y NULLS LAST',
    );
    expect(pg('SELECT row_number() OVER (PARTITION BY a ORDER BY concat(b, c) DESC) AS r FROM t')).toBe(
      'SELECT row_number() OVER (PARTITION BY a ORDER BY concat(b, c) DESC NULLS LAST) AS r FROM t',
    );
    expect(pg('SELECT max(x) OVER (ORDER BY y ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t')).toBe(
      'SELECT max(x) OVER (ORDER BY y NULLS FIRST ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t',
    );
    expect(pg('SELECT count(x ORDER BY y) FROM (SELECT x, y FROM t ORDER BY y DESC LIMIT 5) s')).toBe(
      'SELECT count(x ORDER BY y NULLS FIRST) FROM (SELECT x, y FROM t ORDER BY y DESC NULLS LAST LIMIT 5) s',
    );
    // Columns named as keywords are items, not the end of the list.
    expect(pg('SELECT 1 FROM t ORDER BY "limit", offset DESC OFFSET 2')).toBe(
      'SELECT 1 FROM t ORDER BY "limit" NULLS FIRST, "offset" DESC NULLS LAST OFFSET 2',
    );
    // Strings, quoted names and comments are never read as an ORDER BY.
    const kept = `SELECT 'ORDER BY x', "order by y" /* ORDER BY z */ FROM t -- ORDER BY w\nWHERE true`;
    expect(pg(kept)).toBe(kept);
    expect(pg("SELECT x FROM t ORDER BY x /* ORDER BY y */, 'ORDER BY a' -- last")).toBe(
      "SELECT x FROM t ORDER BY x NULLS FIRST /* ORDER BY y */, 'ORDER BY a' NULLS FIRST",
    );
  });

  it('needs literal zones, patterns and intervals, and checks them with the SQLite path messages', () => {
    expect(refusal('SELECT TD_TIME_FORMAT(time, fmt) FROM t')).toMatch(/date pattern must be written as a literal/);
    expect(refusal("SELECT TD_TIME_FORMAT(time, 'yyyy', tz) FROM t")).toMatch(/time zone must be written as a literal/);
    expect(refusal("SELECT TD_TIME_FORMAT(time, 'yyyy Q') FROM t")).toMatch(/pattern letter "Q" is not supported/);
    expect(refusal("SELECT TD_TIME_ADD(time, '1x') FROM t")).toMatch(/is not a duration/);
    expect(refusal('SELECT CAST(x AS array(varchar))')).toMatch(/arrays and maps are JSON text/);
  });
});
