import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { unpackMultiple } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DuckTestDatabase, startDuckTestDatabase } from '../../testing/duckDatabase';
import { translate } from '../dialect';
import { executeQuery } from '../executeQuery';
import { hiveToPresto } from '../hive';

/**
 * Whole queries over a table in the agreed DuckDB layout and the same rows in today's SQLite layout: the job's
 * rows and `hive_result_schema` are the same on both engines (names a Presto user may give columns, NULLs,
 * sorting, time zones, nested values, aggregates whose type must stay bigint, HiveQL).
 */

const SCHEMA: [string, string][] = [
  ['user', 'string'],
  ['current_role', 'string'],
  ['action', 'string'],
  ['amount', 'double'],
  ['n', 'long'],
  ['flag', 'boolean'],
  ['tags', 'array<string>'],
  ['attrs', 'map<string,long>'],
];
const ROWS: unknown[][] = [
  [1700000000, 'ann', 'admin', 'buy', 60.5, 3, 1, '["a","b"]', '{"x":1}'],
  [1700000060, 'bob', null, 'view', 10, 9007199254740993n, 0, '["b"]', '{"y":2,"z":3}'],
  [1700086400, null, 'guest', 'buy', 70.25, null, null, '[]', '{}'],
  [1700172800, 'Ann', 'admin', 'share', null, -4, 1, null, null],
  [1700172801, 'cat', 'guest', 'buy', 51, 7, 0, '["c"]', '{"x":5}'],
];
const SQLITE_TYPES: Record<string, string> = { string: 'TEXT', double: 'REAL', long: 'INTEGER', boolean: 'INTEGER' };

let duck: DuckTestDatabase;
let sqliteFile: string;

beforeAll(async () => {
  duck = await startDuckTestDatabase();
  await duck.createTable('events', SCHEMA, ROWS);
  sqliteFile = join(duck.dir, 'db.sqlite');
  const db = new Database(sqliteFile);
  db.exec(`CREATE TABLE "_svc$tables" (name TEXT PRIMARY KEY, schema_json TEXT NOT NULL, row_count INTEGER NOT NULL,
    bytes INTEGER NOT NULL, max_time INTEGER, updated_at INTEGER)`);
  const columns = SCHEMA.map(([name, type]) => `, "${name}" ${SQLITE_TYPES[type] ?? 'TEXT'}`).join('');
  db.exec(`CREATE TABLE events (time INTEGER NOT NULL${columns})`);
  const insert = db.prepare(`INSERT INTO events VALUES (${ROWS[0]?.map(() => '?').join(', ')})`);
  for (const row of ROWS) insert.run(...row);
  db.prepare('INSERT INTO "_svc$tables" VALUES (?, ?, ?, 0, NULL, NULL)').run(
    'events',
    JSON.stringify(SCHEMA),
    ROWS.length,
  );
  db.close();
});
afterAll(() => duck?.close());

let sequence = 0;
async function onSqlite(presto: string, nowMs: number) {
  const msgpackPath = join(duck.dir, `sqlite-${++sequence}.msgpack`);
  const outcome = await executeQuery({
    file: sqliteFile,
    sql: translate(presto, 'db'),
    msgpackPath,
    gzipPath: `${msgpackPath}.gz`,
    nowMs,
    maxResultBytes: 1 << 24,
  });
  const bytes = readFileSync(msgpackPath);
  return { schema: outcome.schema, rows: bytes.length === 0 ? [] : (unpackMultiple(bytes) as unknown[][]) };
}

const NOW = Date.UTC(2023, 10, 16, 12);

const PRESTO: string[] = [
  'SELECT * FROM events ORDER BY time',
  'SELECT user, current_role, "User" AS quoted, `action` FROM db.events ORDER BY user, time',
  'SELECT action, COUNT(*) AS n, SUM(n) AS total, SUM(amount) AS amount, COUNT(DISTINCT user) AS users FROM events GROUP BY action ORDER BY action',
  'SELECT user, SUM(amount) AS spent FROM events GROUP BY user ORDER BY spent DESC LIMIT 10',
  "SELECT country_or_action, COUNT(*) AS c FROM (SELECT action AS country_or_action, amount FROM events) s WHERE amount > 50 AND country_or_action = 'buy' GROUP BY country_or_action",
  "SELECT TD_TIME_FORMAT(time, 'yyyy-MM-dd', 'UTC') AS day, COUNT(*) AS n FROM events GROUP BY 1 ORDER BY 1",
  "SELECT TD_TIME_FORMAT(time, 'yyyy-MM-dd HH:mm', 'JST') AS local, TD_TIME_FORMAT(time, 'yyyy-MM-dd HH:mm:ss z', 'America/Los_Angeles') AS la FROM events ORDER BY time",
  "SELECT TD_TIME_FORMAT(time, 'yyyy-MM-dd HH:mm:ss', '+05:30') AS india, TD_TIME_FORMAT(time + 0.75, 'HH:mm:ss', '-0800') AS late FROM events ORDER BY time",
  "SELECT count(*) AS n FROM events WHERE TD_TIME_RANGE(time, '2023-11-15', NULL, 'JST')",
  "SELECT user FROM events WHERE TD_INTERVAL(time, '-1d') ORDER BY time",
  'SELECT user, amount FROM events ORDER BY amount, user',
  'SELECT user, amount FROM events ORDER BY amount DESC, user DESC',
  'SELECT flag, tags, attrs, n FROM events ORDER BY time',
  'SELECT e.user, t.tag FROM events e CROSS JOIN UNNEST(e.tags) AS t(tag) ORDER BY e.time, t.tag',
  "SELECT element_at(tags, 1) AS first, cardinality(tags) AS c, json_extract_scalar(attrs, '$.y') AS y FROM events ORDER BY time",
  'SELECT n / 2 AS half, n % 2 AS odd, amount / 2 AS half_amount FROM events ORDER BY time',
  'SELECT max_by(user, amount) AS top, min_by(user, time) AS first, count_if(flag = 1) AS flagged FROM events',
  "SELECT upper(user) || '!' AS shout, coalesce(current_role, 'none') AS role FROM events ORDER BY time",
  "WITH buyers AS (SELECT user, amount FROM events WHERE action = 'buy') SELECT count(*) AS n, max(amount) AS top FROM buyers",
  'SELECT action, rank() OVER (PARTITION BY action ORDER BY time) AS r FROM events ORDER BY time',
  'SELECT CAST(amount AS bigint) AS whole, TRY_CAST(user AS bigint) IS NULL AS not_number, TRY_CAST(amount AS double) AS real_amount FROM events ORDER BY time',
];

const HIVE: string[] = [
  'SELECT `user`, get_json_object(attrs, "$.x") AS x FROM events ORDER BY time',
  'SELECT nvl(user, "none") AS n, size(tags) AS s FROM events ORDER BY time',
  'SELECT user, tag FROM events LATERAL VIEW explode(tags) t AS tag ORDER BY time, tag',
  'SELECT collect_set(action) AS actions FROM events WHERE action = "buy"',
  "SELECT user FROM events WHERE user RLIKE '^[ab]' SORT BY user",
  "SELECT from_unixtime(time) AS t, from_unixtime(time, 'yyyyMMdd') AS d FROM events ORDER BY time LIMIT 2",
];

describe('the same rows and schema as the SQLite engine', () => {
  for (const [type, queries] of [
    ['presto', PRESTO],
    ['hive', HIVE],
  ] as const) {
    for (const query of queries) {
      it(`${type}: ${query}`, async () => {
        const presto = type === 'hive' ? hiveToPresto(query) : query;
        const expected = await onSqlite(presto, NOW);
        const got = await duck.query(query, { type, nowMs: NOW });
        expect({ schema: got.schema, rows: got.rows }).toEqual(expected);
      });
    }
  }
});
