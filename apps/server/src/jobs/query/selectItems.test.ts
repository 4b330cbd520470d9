import { describe, expect, it } from 'vitest';
import { selectItemCalls, withCallResultTypes } from './selectItems';

describe('selectItemCalls', () => {
  it('names the function of each item that is a bare call, with or without an alias', () => {
    expect(
      selectItemCalls(
        "SELECT date_trunc('day', from_unixtime(time)) AS day, COUNT(1) n, path, lower(path) || 'x' FROM pageviews GROUP BY 1",
      ),
    ).toEqual(['date_trunc', 'count', null, null]);
  });

  it('reads the top SELECT after a WITH, past DISTINCT, and ignores commas and FROM inside calls and strings', () => {
    const sql = `WITH t AS (SELECT a, b FROM x) SELECT DISTINCT DATE_TRUNC('month', '2024-03-15, FROM here') -- a, b
      , (SELECT 1 FROM y) FROM t`;
    expect(selectItemCalls(sql)).toEqual(['date_trunc', null]);
    expect(selectItemCalls('not a query')).toEqual([]);
  });
});

describe('withCallResultTypes', () => {
  it('types as timestamp the text columns of date_trunc, from_unixtime, date_parse and from_iso8601_timestamp', () => {
    const query =
      "SELECT date_trunc('hour', now()), from_unixtime(time), date_parse('2024', '%Y'), from_iso8601_timestamp(s), date_format(now(), '%Y'), time, date_trunc('day', d) FROM t";
    const schema: [string, string][] = [
      ['a', 'varchar'],
      ['b', 'varchar'],
      ['c', 'varchar'],
      ['d', 'varchar'],
      ['e', 'varchar'],
      ['time', 'bigint'],
      ['f', 'bigint'],
    ];
    expect(withCallResultTypes(query, schema)).toEqual([
      ['a', 'timestamp'],
      ['b', 'timestamp'],
      ['c', 'timestamp'],
      ['d', 'timestamp'],
      ['e', 'varchar'],
      ['time', 'bigint'],
      // An engine's own type other than text is kept.
      ['f', 'bigint'],
    ]);
  });
});
