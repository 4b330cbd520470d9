import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestPostgres } from '../../dwh/testing/postgres';
import { freshTestDatabase } from '../../testing/storage';
import { openSqlite } from '../db';
import { type OpenedStorage, openStorage, type Storage, sql } from './index';
import { many } from './query';
import { sqliteStorage } from './sqlite';

/**
 * The dialect's forms (types.ts SqlDialect) give the same answers on SQLite and on PostgreSQL: every test
 * runs on both, in every run of the suite.
 */

const server = startTestPostgres();
process.env.SVC_TEST_PG_URL ??= server.url;
const dir = mkdtempSync(join(tmpdir(), 'svc-dialect-'));
const backends: { name: string; storage: Storage }[] = [];
let pg: { storage: OpenedStorage; drop(): Promise<void> };

beforeAll(async () => {
  const database = await freshTestDatabase();
  pg = { storage: await openStorage({ backend: 'postgres', url: database.url }), drop: database.drop };
  backends.push({ name: 'sqlite', storage: sqliteStorage(openSqlite(join(dir, 'dialect.sqlite'))) });
  backends.push({ name: 'postgres', storage: pg.storage });
  for (const { storage } of backends) {
    await sql`CREATE TABLE events (who TEXT, time BIGINT NOT NULL, what TEXT, n BIGINT)`.execute(storage.db);
    await sql`INSERT INTO events VALUES
      ('a', 1, 'first', 1), ('a', 3, 'newest', 2), ('a', 2, 'middle', 3),
      ('b', 5, 'only', 4), (NULL, 9, 'no key', 5)`.execute(storage.db);
  }
}, 120_000);

afterAll(async () => {
  for (const { storage } of backends) await storage.close();
  await pg?.drop();
  rmSync(dir, { recursive: true, force: true });
  server.stop();
});

const each = (name: string, fn: (storage: Storage) => Promise<void>) =>
  test.each(['sqlite', 'postgres'])(`${name} (%s)`, async (backend) => {
    const found = backends.find((b) => b.name === backend) as { storage: Storage };
    await fn(found.storage);
  });

describe('the SQL dialects', () => {
  each('newestPerKey picks the newest row of each key', async ({ db, dialect }) => {
    const text = dialect.newestPerKey({
      key: 'e.who',
      values: ['e.what', 'e.n'],
      time: 'e.time',
      from: 'events e',
      where: 'e.who IS NOT NULL',
    });
    expect(await many(db, sql.raw(`SELECT k, v0, v1 FROM (${text}) t ORDER BY k`))).toEqual([
      { k: 'a', v0: 'newest', v1: 2 },
      { k: 'b', v0: 'only', v1: 4 },
    ]);
  });

  each('listValues binds a list as one parameter, text or integers', async ({ db, dialect }) => {
    const texts = await many<{ n: number }>(
      db,
      sql`SELECT n FROM events WHERE who IN (${dialect.listValues(['b', "x' OR '1'='1"], 'text')}) ORDER BY n`,
    );
    expect(texts).toEqual([{ n: 4 }]);
    const numbers = await many<{ n: number }>(
      db,
      sql`SELECT n FROM events WHERE n IN (${dialect.listValues([2, 5, 7], 'bigint')}) ORDER BY n`,
    );
    expect(numbers).toEqual([{ n: 2 }, { n: 5 }]);
    const none = await many(db, sql`SELECT n FROM events WHERE n IN (${dialect.listValues([], 'bigint')})`);
    expect(none).toEqual([]);
  });

  each('position finds text from 1, and 0 when it is absent', async ({ db, dialect }) => {
    const at = (haystack: string, needle: string) =>
      many<{ p: number }>(
        db,
        sql`SELECT ${dialect.position(sql`CAST(${haystack} AS TEXT)`, sql`CAST(${needle} AS TEXT)`)} AS p`,
      );
    expect(await at('hello', 'll')).toEqual([{ p: 3 }]);
    expect(await at('hello', 'x')).toEqual([{ p: 0 }]);
    expect(await at('a%b', '%')).toEqual([{ p: 2 }]);
  });

  each('binaryOrder sorts text by code point', async ({ db, dialect }) => {
    const rows = await many<{ v: string }>(
      db,
      sql.raw(
        `SELECT v FROM (SELECT 'a' AS v UNION ALL SELECT 'B' UNION ALL SELECT 'é' UNION ALL SELECT '_') t ORDER BY ${dialect.binaryOrder('v')}`,
      ),
    );
    expect(rows.map((r) => r.v)).toEqual(['B', '_', 'a', 'é']);
  });

  each('ident keeps long names distinct and usable', async ({ db, dialect }) => {
    const long = (end: string) => `c_${'x'.repeat(90)}${end}`;
    await sql
      .raw(`CREATE TABLE wide (${dialect.ident(long('1'))} BIGINT, ${dialect.ident(long('2'))} BIGINT)`)
      .execute(db);
    await sql.raw(`INSERT INTO wide VALUES (1, 2)`).execute(db);
    const rows = await many(db, sql.raw(`SELECT ${dialect.ident(long('2'))} AS v FROM wide`));
    expect(rows).toEqual([{ v: 2 }]);
  });

  each('regexpMatch runs RE2 patterns, and NULL stays NULL', async ({ db, dialect }) => {
    const match = async (value: string | null, pattern: string) => {
      const rows = await many<{ m: unknown }>(
        db,
        sql`SELECT CASE WHEN ${dialect.regexpMatch(sql`CAST(${value} AS TEXT)`, pattern)} THEN 1 ELSE 0 END AS m`,
      );
      return rows[0]?.m;
    };
    expect(await match('newest', '^new')).toBe(1);
    expect(await match('a\nb', 'a.b')).toBe(0);
    expect(await match('Straße', '(?i)STRA')).toBe(1);
    expect(await match('word end', 'd\\b')).toBe(1);
    expect(await match(null, '.*')).toBe(0);
  });
});
