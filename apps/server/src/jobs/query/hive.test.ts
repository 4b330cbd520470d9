import { beforeAll, describe, expect, it } from 'vitest';
import { duckQueries } from '../testing/duckValues';
import { QueryRefused } from './dialect';
import { hiveToPresto, TD_FUNCTIONS } from './hive';

/** HiveQL run the way a hive job runs it on DuckDB, the embedded engine: Hive → Presto → DuckDB, with the functions. */
const duck = duckQueries(Date.UTC(2024, 0, 1));
beforeAll(async () => {
  // Arrays and maps as JSON text, as an untyped text column holds them.
  await duck.tables().createTable(
    'events',
    [
      ['name', 'string'],
      ['payload', 'string'],
      ['tags', 'string'],
      ['attrs', 'string'],
    ],
    [
      [1700000000, 'ann', '{"user":{"id":7},"ok":true}', '["a","b"]', '{"x":1}'],
      [1700000060, 'bob', '{"user":{"id":8}}', '["b"]', '{"y":2,"z":3}'],
      [1700000120, null, '{}', '[]', '{}'],
    ],
  );
});

const rows = (hive: string) => duck.records(hive, 'hive');
const refusal = (hive: string) => {
  try {
    hiveToPresto(hive);
  } catch (e) {
    if (e instanceof QueryRefused) return e.message;
    throw e;
  }
  throw new Error(`not refused: ${hive}`);
};

describe('HiveQL lexical forms', () => {
  it('reads backquoted names, double-quoted text and backslash escapes', async () => {
    expect(hiveToPresto('SELECT `name`, "it\\\'s" AS s FROM `events`')).toBe(
      `SELECT "name", 'it''s' AS s FROM "events"`,
    );
    expect(await rows('SELECT `name` AS `who` FROM events WHERE name = "ann"')).toEqual([{ who: 'ann' }]);
    expect(await rows('SELECT \'a\\tb\' AS t, "say \\"hi\\"" AS q')).toEqual([{ t: 'a\tb', q: 'say "hi"' }]);
  });

  it('leaves comments and Presto text alone', async () => {
    const sql = "SELECT count(*) AS n -- don't touch\nFROM events /* \"x\" */ WHERE TD_TIME_RANGE(time, '2023-11-14')";
    expect(hiveToPresto(sql)).toBe(sql);
    expect(await rows(sql)).toEqual([{ n: 3 }]);
  });
});

describe('HiveQL functions', () => {
  it('get_json_object reads a JSON path as json_extract_scalar', async () => {
    expect(hiveToPresto("get_json_object(payload, '$.user.id')")).toBe("json_extract_scalar(payload, '$.user.id')");
    expect(await rows("SELECT get_json_object(payload, '$.user.id') AS id FROM events ORDER BY time")).toEqual([
      { id: '7' },
      { id: '8' },
      { id: null },
    ]);
  });

  it('from_unixtime gives Hive text, with an optional Java pattern', async () => {
    expect(await rows('SELECT from_unixtime(time) AS t FROM events ORDER BY time LIMIT 1')).toEqual([
      { t: '2023-11-14 22:13:20' },
    ]);
    expect(await rows("SELECT from_unixtime(1700000000, 'yyyyMMdd') AS d")).toEqual([{ d: '20231114' }]);
  });

  it('unix_timestamp is now, or parses text with the default or a literal pattern', async () => {
    expect(await rows('SELECT unix_timestamp() AS n')).toEqual([{ n: Date.UTC(2024, 0, 1) / 1000 }]);
    expect(await rows("SELECT unix_timestamp('2023-11-14 22:13:20') AS t")).toEqual([{ t: 1700000000 }]);
    expect(await rows("SELECT unix_timestamp('14/11/2023 22:13', 'dd/MM/yyyy HH:mm') AS t")).toEqual([
      { t: 1699999980 },
    ]);
    expect(refusal("SELECT unix_timestamp(name, 'EEE') FROM events")).toMatch(/pattern letter "E"/);
    expect(refusal('SELECT unix_timestamp(name, name) FROM events')).toMatch(/pattern that is not a literal/);
  });

  it('nvl, size, concat_ws and the TD functions', async () => {
    expect(await rows("SELECT nvl(name, 'none') AS n, size(tags) AS s FROM events ORDER BY time")).toEqual([
      { n: 'ann', s: 2 },
      { n: 'bob', s: 1 },
      { n: 'none', s: 0 },
    ]);
    expect(await rows("SELECT concat_ws('-', 'a', name) AS c FROM events ORDER BY time")).toEqual([
      { c: 'a-ann' },
      { c: 'a-bob' },
      { c: 'a' },
    ]);
    expect(await rows("SELECT TD_TIME_FORMAT(time, 'yyyy-MM-dd', 'JST') AS d FROM events LIMIT 1")).toEqual([
      { d: '2023-11-15' },
    ]);
  });

  it('collect_list and collect_set gather values without NULLs', async () => {
    expect(
      await rows('SELECT collect_list(name) AS l, collect_set(get_json_object(payload, "$.ok")) AS s FROM events'),
    ).toEqual([{ l: '["ann","bob"]', s: '["true"]' }]);
    expect(
      await rows("SELECT size(collect_set(x)) AS n FROM (SELECT 'a' AS x UNION ALL SELECT 'a' UNION ALL SELECT 'b')"),
    ).toEqual([{ n: 2 }]);
  });

  it("reads v['key'] (the whole-record map) as the key's column", async () => {
    expect(hiveToPresto("SELECT v['Name'], v['v'] FROM events")).toBe('SELECT "name", "_v" FROM events');
    expect(await rows("SELECT v['name'] AS who FROM events WHERE v['name'] = 'bob'")).toEqual([{ who: 'bob' }]);
    expect(refusal("SELECT v[''] FROM events")).toMatch(/HiveQL v\[''\] is not supported/);
  });

  it('rewrites RLIKE and SORT BY', async () => {
    expect(await rows("SELECT name FROM events WHERE name RLIKE '^a' SORT BY name")).toEqual([{ name: 'ann' }]);
  });

  it('every TD function it lets through is one the engine knows', async () => {
    const unknown = /does not exist|no such function|not supported|Unknown function/i;
    for (const name of TD_FUNCTIONS) {
      const failure = await duck.first(`SELECT ${name}(0, 1)`).then(
        () => '',
        (e: Error) => e.message,
      );
      expect(failure, name).not.toMatch(unknown);
    }
    await expect(duck.first('SELECT TD_SESSIONIZE(0, 1)')).rejects.toThrow(unknown);
  });
});

describe('LATERAL VIEW explode', () => {
  it('becomes CROSS JOIN UNNEST in the Presto text', async () => {
    expect(hiveToPresto('SELECT name, tag FROM events LATERAL VIEW explode(tags) t AS tag')).toBe(
      'SELECT name, tag FROM events CROSS JOIN UNNEST(tags) AS t(tag) ',
    );
  });

  it('runs over arrays and maps, keeping the column names', async () => {
    expect(await rows('SELECT name, tag FROM events LATERAL VIEW explode(tags) t AS tag ORDER BY time, tag')).toEqual([
      { name: 'ann', tag: 'a' },
      { name: 'ann', tag: 'b' },
      { name: 'bob', tag: 'b' },
    ]);
    // A map's values come out as text: the SQLite engine multiplied them (10, 20, 30), DuckDB's refuses text * 10
    // (found when these cases moved to DuckDB, decision 0053), kept visible here until it is settled.
    await expect(
      rows('SELECT t.k, v * 10 AS v10 FROM events LATERAL VIEW explode(attrs) t AS k, v ORDER BY k'),
    ).rejects.toThrow(/No function matches/);
    expect(await rows('SELECT t.k, v FROM events LATERAL VIEW explode(attrs) t AS k, v ORDER BY k')).toEqual([
      { k: 'x', v: '1' },
      { k: 'y', v: '2' },
      { k: 'z', v: '3' },
    ]);
    expect(
      await rows('SELECT tag, count(*) AS n FROM events LATERAL VIEW explode(tags) t AS tag GROUP BY tag ORDER BY tag'),
    ).toEqual([
      { tag: 'a', n: 1 },
      { tag: 'b', n: 2 },
    ]);
  });

  it('refuses OUTER, other table functions and missing names, naming them', async () => {
    expect(refusal('SELECT * FROM events LATERAL VIEW OUTER explode(tags) t AS tag')).toMatch(/LATERAL VIEW OUTER/);
    expect(refusal('SELECT * FROM events LATERAL VIEW posexplode(tags) t AS p, tag')).toMatch(
      /LATERAL VIEW posexplode/,
    );
    expect(refusal("SELECT * FROM events LATERAL VIEW json_tuple(payload, 'a') t AS a")).toMatch(/json_tuple/);
    expect(refusal('SELECT explode(tags) FROM events')).toMatch(/explode outside LATERAL VIEW/);
    expect(refusal('SELECT * FROM events LATERAL VIEW explode(tags) AS tag')).toMatch(/without a table alias/);
  });
});

describe('HiveQL with no translation is refused, naming the construct', () => {
  it.each([
    [
      'INSERT OVERWRITE TABLE copy SELECT * FROM events',
      /HiveQL INSERT OVERWRITE \/ INSERT INTO is not supported: queries only read/,
    ],
    ['FROM events INSERT INTO TABLE x SELECT name', /INSERT OVERWRITE/],
    ['SET hive.exec.parallel=true', /HiveQL SET is not supported/],
    ['ADD JAR udf.jar', /ADD JAR/],
    ['SELECT name FROM events DISTRIBUTE BY name', /DISTRIBUTE BY/],
    ['SELECT name FROM events CLUSTER BY name', /CLUSTER BY is not supported: use ORDER BY/],
    ['SELECT * FROM events TABLESAMPLE(BUCKET 1 OUT OF 4)', /TABLESAMPLE/],
    ["SELECT TRANSFORM(name) USING 'cat' FROM events", /TRANSFORM … USING/],
    ['SELECT TD_SESSIONIZE(time, 1800, name) FROM events', /function TD_SESSIONIZE is not supported/],
    ["SELECT 'unclosed FROM events", /unclosed quote/],
  ])('%s', (hive, message) => {
    expect(refusal(hive)).toMatch(message);
  });
});
