import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../db';
import { many, one, run, sql, transaction } from './index';
import { type SqliteStorage, sqliteStorage } from './sqlite';

describe('SQLite transactions beside another connection (a worker thread)', () => {
  let dir: string;
  let storage: SqliteStorage;
  let other: Database.Database;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-sqlite-tx-'));
    storage = sqliteStorage(openSqlite(join(dir, 'control.sqlite')));
    await run(storage.db, sql`CREATE TABLE counter (n INTEGER NOT NULL)`);
    await run(storage.db, sql`INSERT INTO counter VALUES (1)`);
    other = new Database(join(dir, 'control.sqlite'));
    // The other connection does not wait, so the test sees at once who holds the lock.
    other.pragma('busy_timeout = 0');
  });
  afterEach(async () => {
    other.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds the write lock from its first statement, so no commit lands between its read and its write', async () => {
    await transaction(storage, async (tx) => {
      const before = await one<{ n: number }>(tx, sql`SELECT n FROM counter`);
      expect(() => other.prepare('UPDATE counter SET n = n + 100').run()).toThrow(/locked|busy/i);
      await run(tx, sql`UPDATE counter SET n = ${(before?.n ?? 0) + 1}`);
    });
    other.prepare('UPDATE counter SET n = n + 100').run();
    expect(await many(storage.db, sql`SELECT n FROM counter`)).toEqual([{ n: 102 }]);
  });
});
