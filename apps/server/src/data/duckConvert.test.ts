import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock';
import type { Config } from '../platform/config';
import type { AppDeps } from '../platform/context';
import { memoryLogger } from '../platform/logger';
import { insertId, type OpenedStorage, sql } from '../platform/storage';
import { openTestStorage } from '../testing/storage';
import type { DatabaseRow } from './catalog';
import { convertSqliteData } from './duckConvert';
import { closeDuckFiles, duckFile } from './duckFiles';
import { duckPlane } from './duckPlane';
import { prepareRecord } from './tableStore';
import { databaseFile, readSqliteDataFile, writeSqliteDataFile } from './testing/sqliteDataFiles';

/**
 * The one-time upgrade (decision 0031): a data directory written by the SQLite data plane of the release before
 * (its layout and stored values, written here with better-sqlite3: testing/sqliteDataFiles.ts, decision 0053) is
 * converted into DuckDB files with the same rows, figures and values.
 */
describe('conversion of SQLite customer files to DuckDB', () => {
  let dataDir: string;
  let storage: OpenedStorage;
  let deps: AppDeps;
  let logs: ReturnType<typeof memoryLogger>;
  const databases: DatabaseRow[] = [];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-convert-'));
    storage = await openTestStorage(dataDir);
    logs = memoryLogger();
    deps = { storage, config: { dataDir } as Config, clock: new ManualClock(Date.UTC(2026, 10, 25)), logger: logs };
    const accountId = await insertId(
      storage.db,
      sql`INSERT INTO accounts (name, created_at) VALUES ('A', 1) RETURNING id`,
    );
    databases.length = 0;
    for (const name of ['shop', 'web']) {
      const id = await insertId(
        storage.db,
        sql`INSERT INTO databases (account_id, name, delete_protected, created_at, updated_at)
            VALUES (${accountId}, ${name}, 0, 1, 1) RETURNING id`,
      );
      databases.push({ id, account_id: accountId, name, delete_protected: 0, created_at: 1, updated_at: 1 });
    }
  });

  afterEach(async () => {
    await closeDuckFiles();
    await storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Writes tables as the SQLite plane of the release before did, into the database's file. */
  function writeBefore(database: DatabaseRow, tables: [string, Record<string, unknown>[]][]) {
    writeSqliteDataFile(
      databaseFile(dataDir, database.account_id, database.id),
      tables.map(([name, rows]) => ({ name, records: rows.map((r) => prepareRecord(r)), now: 5000 })),
    );
  }
  const readBefore = (database: DatabaseRow) =>
    readSqliteDataFile(databaseFile(dataDir, database.account_id, database.id));

  const shopRows = [
    { time: 1, n: 1, d: 1.5, s: 'x', b: true, a: [1, 2], m: { k: 'v' }, bin: new Uint8Array([1, 2, 255]) },
    { time: 2, n: '9007199254740993', d: 2, s: 'y', b: false },
    { time: 2, n: -3, s: 'é and 日本' },
  ];

  it('converts every database once, with the same rows, values and figures, a line per database', async () => {
    const [shop, web] = databases as [DatabaseRow, DatabaseRow];
    writeBefore(shop, [['events', shopRows]]);
    writeBefore(web, [
      ['pages', Array.from({ length: 5000 }, (_, i) => ({ time: 1000 + (i % 97), path: `/p/${i}`, ms: i * 0.25 }))],
      ['empty', []],
    ]);
    const shopBefore = readBefore(shop);
    const webBefore = readBefore(web);
    const before = {
      events: shopBefore.rows.get('events'),
      pages: webBefore.rows.get('pages'),
      figures: [shopBefore.figures, webBefore.figures],
    };

    const done = await convertSqliteData(dataDir, deps.logger);
    expect(done.map((d) => d.tables.map((t) => [t.name, t.rows]))).toEqual([
      [['events', 3]],
      [
        ['empty', 0],
        ['pages', 5000],
      ],
    ]);
    expect(logs.lines.filter((l) => l.includes('customer database converted to DuckDB'))).toHaveLength(2);

    const duck = duckPlane(deps);
    expect(await duck.figures(shop)).toEqual(before.figures[0]);
    expect(await duck.figures(web)).toEqual(before.figures[1]);
    const events = await duck.rows(shop, 'events');
    // The integer past 2^53 stays exact (better-sqlite3 reads it as the nearest double).
    expect(events[1]?.n).toBe(9007199254740993n);
    expect(events.map((r) => ({ ...r, n: r.n === null ? null : Number(r.n) }))).toEqual(before.events);
    expect(await duck.rows(web, 'pages')).toEqual(before.pages);
    expect(existsSync(databaseFile(dataDir, shop.account_id, shop.id))).toBe(false);
    expect(existsSync(`${databaseFile(dataDir, shop.account_id, shop.id)}.converted`)).toBe(true);

    // Once only: a second start finds nothing to convert.
    expect(await convertSqliteData(dataDir, deps.logger)).toEqual([]);
  });

  it('leaves a file it cannot convert as it was and says which table failed and why', async () => {
    const [shop] = databases as [DatabaseRow];
    writeBefore(shop, [['events', shopRows]]);
    // A value no current write stores: text in a whole-number column (SQLite keeps what it is given).
    const file = databaseFile(dataDir, shop.account_id, shop.id);
    const db = new Database(file);
    db.prepare(`INSERT INTO "events" (time, n) VALUES (3, 'not a number')`).run();
    db.close();
    const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex');
    const before = digest();

    await expect(convertSqliteData(dataDir, deps.logger)).rejects.toThrow(
      /Converting the customer database file .*\.sqlite to DuckDB failed, so it was left as it was: table "events": .*/,
    );
    expect(digest()).toBe(before);
    expect(existsSync(duckFile(dataDir, shop.account_id, shop.id))).toBe(false);
    expect(existsSync(`${duckFile(dataDir, shop.account_id, shop.id)}.converting`)).toBe(false);
    expect(readBefore(shop).rows.get('events')).toHaveLength(4);
  });
});
