/**
 * Presto expressions and the value a query job gives for each, the same on SQLite and on PostgreSQL
 * (postgres/parity.test.ts runs every case through both). Booleans are 1 and 0; timestamps are text. The job's
 * "now" is DIALECT_NOW; `hundred` cases aggregate x over 1..100.
 */

/** Friday 2024-03-15 10:30:00 UTC (19:30 in Tokyo). */
export const DIALECT_NOW = Date.UTC(2024, 2, 15, 10, 30, 0);

const JAN_1 = 1704067200;
const at = (iso: string) => Date.parse(iso) / 1000;
const doc = `'{"a":{"b":[1,"x"]},"k v":true}'`;
const url = "'https://shop.example/cart/view?item=42&x=1'";

export interface DialectCase {
  expr: string;
  /** The value, or a pattern the error message matches. */
  expected: unknown;
  /** Evaluated as an aggregate over x in 1..100. */
  hundred?: boolean;
}

const ok = (expr: string, expected: unknown, hundred = false): DialectCase => ({ expr, expected, hundred });
const fails = (expr: string, message: RegExp, hundred = false): DialectCase => ({ expr, expected: message, hundred });

export const DIALECT_CASES: Record<string, DialectCase[]> = {
  TD_TIME_RANGE: [
    ok(`TD_TIME_RANGE(${JAN_1}, '2024-01-01', '2024-01-02')`, 1),
    ok(`TD_TIME_RANGE(${JAN_1 + 86399}, '2024-01-01', '2024-01-02')`, 1),
    ok(`TD_TIME_RANGE(${JAN_1 + 86400}, '2024-01-01', '2024-01-02')`, 0),
    ok(`TD_TIME_RANGE(${JAN_1 - 1}, '2024-01-01', '2024-01-02')`, 0),
    ok("TD_TIME_RANGE(0, NULL, '2024-01-01')", 1),
    ok(`TD_TIME_RANGE(${JAN_1 + 10 ** 6}, '2024-01-01')`, 1),
    ok(`TD_TIME_RANGE(${JAN_1 - 9 * 3600}, '2024-01-01', '2024-01-02', 'JST')`, 1),
    ok(`TD_TIME_RANGE(${JAN_1 - 9 * 3600 - 1}, '2024-01-01', NULL, 'Asia/Tokyo')`, 0),
    ok(`TD_TIME_RANGE(${JAN_1}, '2024-01-01 09:00:00 +0900', NULL)`, 1),
    ok('TD_TIME_RANGE(100, 50, 150)', 1),
    ok("TD_TIME_RANGE(NULL, '2024-01-01')", null),
    ok(`TD_TIME_RANGE(${JAN_1}, CAST('2024-01-01' AS varchar), NULL)`, 1),
    ok('TD_TIME_RANGE(1710412200, TD_SCHEDULED_TIME() - 86400, TD_SCHEDULED_TIME())', 1),
    fails("TD_TIME_RANGE(1, lower('Yesterday'))", /"yesterday" is not a date or time/),
    fails("TD_TIME_RANGE(1, 'yesterday')", /"yesterday" is not a date or time/),
    fails('TD_TIME_RANGE(1)', /takes 2 to 4 arguments/),
    fails("TD_TIME_RANGE(1, '2024-01-01', NULL, 'Mars/Olympus')", /Unknown time zone/),
  ],
  TD_TIME_FORMAT: [
    ok(`TD_TIME_FORMAT(${JAN_1}, 'yyyy-MM-dd HH:mm:ss z')`, '2024-01-01 00:00:00 UTC'),
    ok(`TD_TIME_FORMAT(${JAN_1}, 'yyyy-MM-dd HH:mm:ss z', 'JST')`, '2024-01-01 09:00:00 JST'),
    ok(`TD_TIME_FORMAT(${JAN_1}, 'EEE MMM d, h a Z', 'JST')`, 'Mon Jan 1, 9 AM +0900'),
    ok(`TD_TIME_FORMAT(${JAN_1}, 'yy/M/d ''at'' SSS')`, '24/1/1 at 000'),
    ok(`TD_TIME_FORMAT(${at('2024-03-10T08:00:00Z')}, 'HH:mm z', 'America/Los_Angeles')`, '00:00 PST'),
    ok(`TD_TIME_FORMAT(${at('2024-03-10T10:00:00Z')}, 'HH:mm z', 'America/Los_Angeles')`, '03:00 PDT'),
    ok(`TD_TIME_FORMAT(${JAN_1}, 'yyyy-MM-dd''T''HH:mm:ssXXX', '+05:30')`, '2024-01-01T05:30:00+05:30'),
    ok(
      `TD_TIME_FORMAT(${at('2024-02-29T13:05:09.123Z')}, 'EEEE MMMM D u k K hh:m:s.SS X')`,
      'Thursday February 60 4 13 1 01:5:9.12 Z',
    ),
    ok(`TD_TIME_FORMAT(${at('2024-12-31T00:00:00Z')}, 'z X', 'Asia/Tokyo')`, 'GMT+09:00 +09'),
    ok(`TD_TIME_FORMAT(NULL, 'yyyy')`, null),
    ok(
      `TD_TIME_FORMAT(${JAN_1}, 'yyyy ''"x\\'' EEEE, E hh:mm:ss.SSS a', 'America/New_York')`,
      '2023 "x\\ Sunday, Sun 07:00:00.000 PM',
    ),
  ],
  TD_TIME_PARSE: [
    ok("TD_TIME_PARSE('2024-01-01')", JAN_1),
    ok("TD_TIME_PARSE('2024-01-01 09:00:00', 'JST')", JAN_1),
    ok("TD_TIME_PARSE('2024-01-01T09:00:00+09:00')", JAN_1),
    ok("TD_TIME_PARSE('2024-01-01 00:00:00 UTC')", JAN_1),
    ok("TD_TIME_PARSE('not a time')", null),
  ],
  TD_INTERVAL: [
    ok(`TD_INTERVAL(${at('2024-03-14T12:00:00Z')}, '-1d')`, 1),
    ok(`TD_INTERVAL(${at('2024-03-15T00:00:00Z')}, '-1d')`, 0),
    ok(`TD_INTERVAL(${at('2024-03-15T00:00:00Z')}, '1d')`, 1),
    ok(`TD_INTERVAL(${at('2024-03-16T00:00:00Z')}, '1d')`, 0),
    ok(`TD_INTERVAL(${at('2024-03-11T00:00:00Z')}, '1w')`, 1),
    ok(`TD_INTERVAL(${at('2024-03-10T23:59:59Z')}, '1w')`, 0),
    ok(`TD_INTERVAL(${at('2024-02-29T23:00:00Z')}, '-1M')`, 1),
    ok(`TD_INTERVAL(${at('2024-03-08T00:00:00Z')}, '-7d/now')`, 1),
    ok(`TD_INTERVAL(${at('2024-03-15T10:30:00Z')}, '-7d/now')`, 0),
    ok(`TD_INTERVAL(${at('2023-12-31T05:00:00Z')}, '-1d/2024-01-01')`, 1),
    ok(`TD_INTERVAL(${at('2024-03-13T12:00:00Z')}, '-7d/-1d')`, 1),
    ok(`TD_INTERVAL(${at('2024-03-13T15:00:00Z')}, '-1d', 'JST')`, 1),
    ok(`TD_INTERVAL(${at('2024-03-14T15:00:00Z')}, '-1d', 'JST')`, 0),
    fails("TD_INTERVAL(1, '-1x')", /is not an interval/),
    fails("TD_INTERVAL(1, '-1d/someday')", /not now, a duration or a date/),
  ],
  'other TD functions': [
    ok(`TD_TIME_ADD(${JAN_1}, '1d')`, JAN_1 + 86400),
    ok(`TD_TIME_ADD(${JAN_1}, '-2h')`, JAN_1 - 7200),
    ok(`TD_TIME_ADD(${at('2024-01-31T00:00:00Z')}, '1M')`, at('2024-02-29T00:00:00Z')),
    ok(`TD_DATE_TRUNC('month', ${at('2024-02-10T05:00:00Z')})`, at('2024-02-01T00:00:00Z')),
    ok(`TD_DATE_TRUNC('day', ${JAN_1}, 'JST')`, JAN_1 - 9 * 3600),
    ok('TD_SCHEDULED_TIME()', DIALECT_NOW / 1000),
  ],
  'Presto time functions': [
    ok(`from_unixtime(${JAN_1})`, '2024-01-01 00:00:00.000'),
    ok(`from_unixtime(${JAN_1 + 0.25})`, '2024-01-01 00:00:00.250'),
    ok(`from_unixtime(${JAN_1}, 'Asia/Tokyo')`, '2024-01-01 09:00:00.000 Asia/Tokyo'),
    ok(`to_unixtime(from_unixtime(${JAN_1}))`, JAN_1),
    ok(`to_unixtime(from_unixtime(${JAN_1}, 'Asia/Tokyo'))`, JAN_1),
    ok("to_unixtime('2024-01-01 00:00:01.500')", JAN_1 + 1.5),
    fails("to_unixtime('soon')", /is not a timestamp/),
    fails("to_unixtime('2024-01-01 00:00:00.000 Mars/Olympus')", /is not a timestamp/),
    ok(`hour(from_unixtime(${JAN_1}, 'JST'))`, 9),
    ok(`to_iso8601(from_unixtime(${JAN_1 + 0.5}, 'JST'))`, '2024-01-01T00:00:00.500Z'),
    ok(`date_trunc('day', from_unixtime(${JAN_1}, 'America/New_York'))`, '2023-12-31 00:00:00.000 America/New_York'),
    ok(`date_format(from_unixtime(${JAN_1}), '%Y-%m-%d %H:%i:%s')`, '2024-01-01 00:00:00'),
    ok(`date_format(from_unixtime(${JAN_1}, 'Asia/Tokyo'), '%H:%i %p %W %b %e')`, '09:00 AM Monday Jan 1'),
    ok("date_parse('2024/01/02 03:04', '%Y/%m/%d %H:%i')", '2024-01-02 03:04:00.000'),
    ok("date_parse('Feb 3 24 07:08:09.5 PM', '%b %e %y %h:%i:%s.%f %p')", '2024-02-03 19:08:09.500'),
    ok(
      "date_format('2024-02-29 13:05:09.123', '%y %c %M %j %k %l %r %T %S %f %w %a %% %q')",
      '24 2 February 060 13 1 01:05:09 PM 13:05:09 09 123000 4 Thu % q',
    ),
    fails("date_parse('2024-01-02', '%Y/%m/%d')", /does not match/),
    ok(`format_datetime(from_unixtime(${JAN_1}), 'yyyy/MM/dd HH:mm')`, '2024/01/01 00:00'),
    ok("from_iso8601_timestamp('2024-01-01T09:00:00+09:00')", '2024-01-01 00:00:00.000'),
    ok("to_iso8601('2024-01-01 00:00:00.000')", '2024-01-01T00:00:00.000Z'),
    ok("date_trunc('month', '2024-03-15 10:30:00')", '2024-03-01 00:00:00.000'),
    ok("date_trunc('hour', '2024-03-15 10:30:00.000 Asia/Tokyo')", '2024-03-15 10:00:00.000 Asia/Tokyo'),
    ok('now()', '2024-03-15 10:30:00.000'),
    fails("date_trunc('fortnight', now())", /Unknown unit/),
    ...['year', 'month', 'day', 'hour', 'minute', 'second', 'day_of_week'].map((f, i) =>
      ok(`${f}('2024-03-15 10:30:45')`, [2024, 3, 15, 10, 30, 45, 5][i]),
    ),
  ],
  'regular expressions': [
    ok("regexp_like('abc123', '\\d+')", 1),
    ok("regexp_like('abc', '^\\d')", 0),
    ok("regexp_like(NULL, 'a')", null),
    ok("'abc' REGEXP 'b'", 1),
    ok("'abc' NOT REGEXP 'b'", 0),
    fails("regexp_like('a', '(')", /invalid regular expression/),
    ok("regexp_extract('a1b22', '\\d+')", '1'),
    ok("regexp_extract('user=alice;', 'user=(\\w+)', 1)", 'alice'),
    ok("regexp_extract('abc', '\\d')", null),
    fails("regexp_extract('a1', '(\\d)', 2)", /no group 2/),
    ok("regexp_replace('a1b2', '\\d', '#')", 'a#b#'),
    ok("regexp_replace('a1b2', '\\d')", 'ab'),
    ok("regexp_replace('ab', '(a)(b)', '$2$1')", 'ba'),
  ],
  strings: [
    ok("split_part('a,b,c', ',', 2)", 'b'),
    ok("split_part('a,b,c', ',', 4)", null),
    fails("split_part('a', ',', 0)", /whole number from 1/),
    ok("strpos('hello', 'l')", 3),
    ok("strpos('hello', 'z')", 0),
    ok(`url_extract_host(${url})`, 'shop.example'),
    ok(`url_extract_path(${url})`, '/cart/view'),
    ok(`url_extract_parameter(${url}, 'item')`, '42'),
    ok("url_extract_host('not a url')", null),
    ok("concat('a', 'b', 'c')", 'abc'),
    ok("concat_ws('-', 'a', NULL, 'b')", 'a-b'),
    ok("concat_ws('-', 'a', 1, 2.5)", 'a-1-2.5'),
    ok("concat_ws(NULL, 'a')", null),
    ok("upper(substr('hello', 2, 3))", 'ELL'),
    ok("length(replace(trim('  ab  '), 'a', 'xy'))", 3),
  ],
  'JSON, arrays and maps': [
    ok(`json_extract_scalar(${doc}, '$.a.b[1]')`, 'x'),
    ok(`json_extract_scalar(${doc}, '$.a.b[0]')`, '1'),
    ok(`json_extract_scalar(${doc}, '$["k v"]')`, 'true'),
    ok(`json_extract_scalar(${doc}, '$.a')`, null),
    ok(`json_extract_scalar(${doc}, '$.missing.deeper')`, null),
    ok("json_extract_scalar('not json', '$.a')", null),
    ok(`json_extract(${doc}, '$.a.b[1]')`, 'x'),
    ok(`json_extract(${doc}, '$.a.b')`, '[1,"x"]'),
    fails(`json_extract_scalar(${doc}, 'a.b')`, /must start with "\$"/),
    ok("element_at('[10,20,30]', 2)", 20),
    ok("element_at('[10,20,30]', -1)", 30),
    ok("element_at('[10,20,30]', 5)", null),
    ok('element_at(ARRAY[7, 8], 1)', 7),
    ok('element_at(ARRAY[1.5, NULL, -2], 1)', 1.5),
    ok(`element_at('{"a":1,"b":2.5}', 'b')`, 2.5),
    ok(`element_at('[1,"x"]', 1)`, '1'),
    ok(`element_at('{"k":"v"}', 'k')`, 'v'),
    ok(`element_at('{"k":[1]}', 'k')`, '[1]'),
    ok(`element_at('["a","b"]', -1)`, 'b'),
    fails("element_at('[1]', 0)", /start at 1/),
    ok("cardinality('[1,2,3]')", 3),
    ok(`cardinality('{"a":1}')`, 1),
    ok(`contains('["a","b"]', 'b')`, 1),
    ok(`contains('["a","b"]', 'c')`, 0),
    ok('cardinality(ARRAY[1, 2])', 2),
    ok("ARRAY[1, 'a', ARRAY[2]]", '[1,"a",[2]]'),
    ok("contains(ARRAY['x', 'y'], 'y')", 1),
  ],
  'conditionals and comparisons': [
    ok("if(1 > 0, 'yes', 'no')", 'yes'),
    ok("if(1 < 0, 'yes')", null),
    ok("coalesce(NULL, NULL, 'third')", 'third'),
    ok("nullif('a', 'a')", null),
    ok('greatest(1, 5, 3)', 5),
    ok("least('b', 'a', 'c')", 'a'),
    ok('greatest(1, NULL)', null),
    ok('round(2.5)', 3),
    ok('round(1.2345, 2)', 1.23),
    ok('abs(-4)', 4),
  ],
  CAST: [
    ok('CAST(2.5 AS bigint)', 3),
    ok('CAST(-2.5 AS bigint)', -3),
    ok("CAST('42' AS integer)", 42),
    fails("CAST('4x' AS bigint)", /Cannot cast "4x" to bigint/),
    ok("TRY_CAST('4x' AS bigint)", null),
    ok("TRY_CAST('1.5' AS double)", 1.5),
    fails("CAST('one' AS double)", /to double/),
    ok('CAST(1.5 AS varchar)', '1.5'),
    ok('CAST(12 AS varchar(10))', '12'),
    ok("CAST('true' AS boolean)", 1),
    ok("CAST('2024-01-01' AS timestamp)", '2024-01-01 00:00:00.000'),
    ok("CAST('2024-01-01 10:00:00' AS date)", '2024-01-01'),
    ok("CAST('a' AS json)", '"a"'),
    ok('CAST(1.25 AS decimal(10,2))', 1.25),
    ok("CAST('7' AS varchar) || DATE '2024-01-01'", '72024-01-01'),
    // A condition as text is true or false, as a number 1 or 0 (Presto's casts of a boolean).
    ok('CAST(1 > 0 AS varchar)', 'true'),
    ok('CAST(1 < 0 AS varchar)', 'false'),
    ok('CAST(NULL = 1 AS varchar)', null),
    ok('TRY_CAST(2 IN (1, 2) AS varchar)', 'true'),
    ok(`CAST(TD_TIME_RANGE(${JAN_1}, '2024-01-01', '2024-01-02') AS varchar)`, 'true'),
    ok("CAST(CAST('false' AS boolean) AS varchar)", 'false'),
    ok('CAST(1 > 0 AS integer)', 1),
    ok('CAST(1 < 0 AS bigint)', 0),
    ok('CAST(1 > 0 AS double)', 1),
    ok('CAST(1 < 0 AS double)', 0),
    ok('CAST(NULL = 1 AS double)', null),
  ],
  aggregates: [
    ok('approx_distinct(x % 7)', 7, true),
    ok('approx_percentile(x, 0.5)', 50, true),
    ok('approx_percentile(x, 0.9)', 90, true),
    ok('approx_percentile(x, 0)', 1, true),
    ok('approx_percentile(x, ARRAY[0.5, 0.99])', '[50,99]', true),
    fails('approx_percentile(x, 2)', /between 0 and 1/, true),
    ok('count_if(x > 60)', 40, true),
    ok('arbitrary(x) BETWEEN 1 AND 100', 1, true),
    ok("max_by('item' || x, x % 10 * 100 + x)", 'item99', true),
    ok("min_by('item' || x, x)", 'item1', true),
    ok('count(*) + sum(x) + max(x) - min(x)', 100 + 5050 + 99, true),
  ],
};

const HUNDRED = 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100)';

/** The Presto query of a case: one column `v`. */
export const caseQuery = (c: DialectCase) =>
  c.hundred ? `${HUNDRED} SELECT ${c.expr} AS v FROM n` : `SELECT ${c.expr} AS v`;
