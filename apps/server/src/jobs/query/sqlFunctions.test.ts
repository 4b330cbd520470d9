import { describe, expect, it } from 'vitest';
import { duckQueries } from '../testing/duckValues';

/** Runs Presto-dialect SQL the way a job does on DuckDB, the embedded engine: translated, with the functions. */
const { value, first } = duckQueries(Date.UTC(2024, 0, 1));
const hundred = 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100)';
const aggregate = (expr: string) => first(`${hundred} SELECT ${expr} AS v FROM n`);

describe('regular expressions', () => {
  it('regexp_like and the REGEXP operator test a pattern', async () => {
    expect(await value("regexp_like('abc123', '\\d+')")).toBe(1);
    expect(await value("regexp_like('abc', '^\\d')")).toBe(0);
    expect(await value("regexp_like(NULL, 'a')")).toBeNull();
    expect(await value("'abc' REGEXP 'b'")).toBe(1);
    await expect(value("regexp_like('a', '(')")).rejects.toThrow(/invalid regular expression/);
  });

  it('regexp_extract returns the match or a group, NULL when nothing matches', async () => {
    expect(await value("regexp_extract('a1b22', '\\d+')")).toBe('1');
    expect(await value("regexp_extract('user=alice;', 'user=(\\w+)', 1)")).toBe('alice');
    expect(await value("regexp_extract('abc', '\\d')")).toBeNull();
    await expect(value("regexp_extract('a1', '(\\d)', 2)")).rejects.toThrow(/no group 2/);
  });

  it('regexp_replace replaces every match', async () => {
    expect(await value("regexp_replace('a1b2', '\\d', '#')")).toBe('a#b#');
    expect(await value("regexp_replace('a1b2', '\\d')")).toBe('ab');
  });
});

describe('strings', () => {
  it('split_part counts from 1 and is NULL past the end', async () => {
    expect(await value("split_part('a,b,c', ',', 2)")).toBe('b');
    expect(await value("split_part('a,b,c', ',', 4)")).toBeNull();
    await expect(value("split_part('a', ',', 0)")).rejects.toThrow(/whole number from 1/);
  });

  it('strpos is 1-based and 0 when absent', async () => {
    expect(await value("strpos('hello', 'l')")).toBe(3);
    expect(await value("strpos('hello', 'z')")).toBe(0);
  });

  it('url_extract_host, url_extract_path and url_extract_parameter read URLs', async () => {
    const url = "'https://shop.example/cart/view?item=42&x=1'";
    expect(await value(`url_extract_host(${url})`)).toBe('shop.example');
    expect(await value(`url_extract_path(${url})`)).toBe('/cart/view');
    expect(await value(`url_extract_parameter(${url}, 'item')`)).toBe('42');
    expect(await value("url_extract_host('not a url')")).toBeNull();
  });
});

describe('JSON, arrays and maps (JSON text)', () => {
  const doc = `'{"a":{"b":[1,"x"]},"k v":true}'`;

  it('json_extract_scalar returns scalars as text and NULL for objects or missing paths', async () => {
    expect(await value(`json_extract_scalar(${doc}, '$.a.b[1]')`)).toBe('x');
    expect(await value(`json_extract_scalar(${doc}, '$.a.b[0]')`)).toBe('1');
    expect(await value(`json_extract_scalar(${doc}, '$["k v"]')`)).toBe('true');
    expect(await value(`json_extract_scalar(${doc}, '$.a')`)).toBeNull();
    expect(await value(`json_extract_scalar(${doc}, '$.missing.deeper')`)).toBeNull();
    expect(await value("json_extract_scalar('not json', '$.a')")).toBeNull();
    await expect(value(`json_extract_scalar(${doc}, 'a.b')`)).rejects.toThrow(/must start with "\$"/);
  });

  it('element_at reads arrays from 1 (or from the end) and maps by key', async () => {
    expect(await value("element_at('[10,20,30]', 2)")).toBe(20);
    expect(await value("element_at('[10,20,30]', -1)")).toBe(30);
    expect(await value("element_at('[10,20,30]', 5)")).toBeNull();
    expect(await value('element_at(ARRAY[7, 8], 1)')).toBe(7);
    expect(await value(`element_at('{"k":"v"}', 'k')`)).toBe('v');
    expect(await value(`element_at('{"k":[1]}', 'k')`)).toBe('[1]');
    await expect(value("element_at('[1]', 0)")).rejects.toThrow(/start at 1/);
  });

  it('cardinality and contains', async () => {
    expect(await value("cardinality('[1,2,3]')")).toBe(3);
    expect(await value(`cardinality('{"a":1}')`)).toBe(1);
    expect(await value(`contains('["a","b"]', 'b')`)).toBe(1);
    expect(await value(`contains('["a","b"]', 'c')`)).toBe(0);
  });
});

describe('conditionals and comparisons', () => {
  it('if and coalesce behave as in Presto', async () => {
    expect(await value("if(1 > 0, 'yes', 'no')")).toBe('yes');
    expect(await value("if(1 < 0, 'yes')")).toBeNull();
    expect(await value("coalesce(NULL, NULL, 'third')")).toBe('third');
  });

  it('greatest and least, NULL if any argument is', async () => {
    expect(await value('greatest(1, 5, 3)')).toBe(5);
    expect(await value("least('b', 'a', 'c')")).toBe('a');
    expect(await value('greatest(1, NULL)')).toBeNull();
  });
});

describe('CAST as Presto does it', () => {
  it('rounds fractions to bigint and reads integer text', async () => {
    expect(await value('CAST(2.5 AS bigint)')).toBe(3);
    expect(await value('CAST(-2.5 AS bigint)')).toBe(-3);
    expect(await value("CAST('42' AS integer)")).toBe(42);
    // Beyond 2^53 the value stays an exact 64-bit integer inside the engine.
    expect(await value("CAST('9007199254740993' AS bigint) = 9007199254740993")).toBe(1);
  });

  it('fails on text that is not a number, where TRY_CAST gives NULL', async () => {
    await expect(value("CAST('4x' AS bigint)")).rejects.toThrow(/Cannot cast "4x" to bigint/);
    expect(await value("TRY_CAST('4x' AS bigint)")).toBeNull();
    expect(await value("TRY_CAST('1.5' AS double)")).toBe(1.5);
    await expect(value("CAST('one' AS double)")).rejects.toThrow(/to double/);
  });

  it('casts to varchar, boolean, timestamp, date and json', async () => {
    expect(await value('CAST(1.5 AS varchar)')).toBe('1.5');
    expect(await value('CAST(12 AS varchar(10))')).toBe('12');
    expect(await value("CAST('true' AS boolean)")).toBe(1);
    expect(await value("CAST('2024-01-01' AS timestamp)")).toBe('2024-01-01 00:00:00.000');
    expect(await value("CAST('2024-01-01 10:00:00' AS date)")).toBe('2024-01-01');
    expect(await value("CAST('a' AS json)")).toBe('"a"');
    // A condition is JSON's true or false, as in Presto; a number stays a number.
    expect(await value('CAST(2 > 1 AS json)')).toBe('true');
    expect(await value('CAST(2 < 1 AS json)')).toBe('false');
    expect(await value('CAST(1 AS json)')).toBe('1');
    expect(await value('CAST(1.25 AS decimal(10,2))')).toBe(1.25);
  });
});

describe('aggregates', () => {
  it('approx_distinct counts distinct non-NULL values', async () => {
    expect(await aggregate('approx_distinct(x % 7)')).toBe(7);
    expect(await value('(SELECT approx_distinct(v) FROM (SELECT NULL AS v UNION ALL SELECT 1))')).toBe(1);
  });

  it('approx_percentile takes one percentage or an array of them', async () => {
    expect(await aggregate('approx_percentile(x, 0.5)')).toBe(50);
    expect(await aggregate('approx_percentile(x, 0.9)')).toBe(90);
    expect(await aggregate('approx_percentile(x, 0)')).toBe(1);
    expect(await aggregate('approx_percentile(x, ARRAY[0.5, 0.99])')).toBe('[50,99]');
    await expect(aggregate('approx_percentile(x, 2)')).rejects.toThrow(/between 0 and 1/);
    await expect(aggregate('approx_percentile(x)')).rejects.toThrow(/takes 2 arguments/);
  });

  it('count_if, arbitrary, max_by and min_by', async () => {
    expect(await aggregate('count_if(x > 60)')).toBe(40);
    expect(await aggregate('arbitrary(x) BETWEEN 1 AND 100')).toBe(1);
    expect(await aggregate("max_by('item' || x, x % 10 * 100 + x)")).toBe('item99');
    expect(await aggregate("min_by('item' || x, x)")).toBe('item1');
  });
});
