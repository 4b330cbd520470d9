import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { decodeBatch, type PartLimits, RecordScanner } from '@svc/bulk-format';
import {
  type DataTx,
  dataPlane,
  type PreparedRecord,
  refreshCatalog,
  requireDatabase,
  requireTable,
  type TableRow,
} from '../data';
import type { AppDeps } from '../platform/context';
import { conflict } from '../platform/errors';
import { one, run, sql } from '../platform/storage';
import { performFiles } from './files';
import { RecordRules } from './records';
import type { SessionRow } from './sessions';
import { type LocalCopy, localCopy } from './sharedFiles';
import { type Manifest, readBlocks, readManifest } from './staged';

/**
 * Which performs have landed, kept in the customer database's own data and written in the same
 * transaction as the rows: whether a commit happened is then never in doubt, whatever the control
 * database says. `$` cannot appear in a table name, so no customer table collides with it.
 */
const COMMITS = '_svc$bulk_commits';
const COMMITS_COLUMNS = `token TEXT PRIMARY KEY, session TEXT NOT NULL, table_name TEXT NOT NULL,
  records BIGINT NOT NULL, committed_at BIGINT NOT NULL`;

/**
 * A legacy staged file's records, prepared for the table store, read synchronously (they must all go into one
 * transaction) in slices small enough that they die young and cost the garbage collector little.
 */
function* stagedRecords(path: string, limits: PartLimits): Generator<PreparedRecord[]> {
  const fd = openSync(path, 'r');
  const rules = new RecordRules();
  try {
    const scanner = new RecordScanner(limits);
    for (;;) {
      const buf = Buffer.allocUnsafe(256 * 1024);
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const prepared: PreparedRecord[] = [];
      for (const record of decodeBatch(scanner.push(buf.subarray(0, n)))) {
        const p = rules.prepare(record);
        // Perform staged only records that pass; one that does not now means the file is damaged.
        if (!p) throw new Error('A staged bulk import record no longer passes the record rules.');
        prepared.push(p);
      }
      if (prepared.length > 0) yield prepared;
    }
    scanner.end();
  } finally {
    closeSync(fd);
  }
}

/**
 * Lands a performed session's staged rows in its table exactly once: every row, the columns they add
 * and a marker naming the perform go into ONE transaction of the database's data (its file, or its
 * PostgreSQL schema). Calling it again, or after a crash anywhere in it, finds the marker (or no trace of
 * the rolled-back attempt) and writes nothing twice. Throws 404 when the database or table is gone, 400
 * when the rows cannot fit the table. Runs as a background task (tasks.ts) in the database's lane.
 */
export async function landStagedRows(
  deps: AppDeps,
  session: SessionRow,
  limits: PartLimits,
  crash: (point: 'commit:rows-written' | 'commit:data-committed') => Promise<void> = async () => undefined,
): Promise<{ inserted: number }> {
  const token = session.perform_token;
  if (!token) throw conflict(`The bulk import session "${session.name}" has not been performed yet.`);
  const database = await requireDatabase(deps.storage.db, session.account_id, session.database_name);
  const table = await requireTable(deps.storage.db, session.account_id, database.id, session.table_name);
  // Read synchronously into one transaction: local copies when another node performed the session.
  const staged = await stagedRows(deps, session, token, limits);
  let inserted = 0;
  try {
    await dataPlane(deps).transaction(database, async (t) => {
      await t.ensureTable(COMMITS, COMMITS_COLUMNS);
      if (await one(t.ex, sql`SELECT 1 AS one FROM ${t.table(COMMITS)} WHERE token = ${token}`)) return;
      const now = deps.clock.now().getTime();
      inserted = await staged.append(t, table, now);
      await crash('commit:rows-written');
      await run(
        t.ex,
        sql`INSERT INTO ${t.table(COMMITS)} (token, session, table_name, records, committed_at)
            VALUES (${token}, ${session.name}, ${session.table_name}, ${inserted}, ${now})`,
      );
    });
  } finally {
    await staged.release();
    // Committed or rolled back, the catalog shows what the data holds.
    await refreshCatalog(deps, database);
  }
  await crash('commit:data-committed');
  return { inserted };
}

interface Staged {
  /** Writes every staged row into the table in the transaction; returns how many. */
  append(t: DataTx, table: TableRow, now: number): Promise<number>;
  release(): Promise<void>;
}

/**
 * The perform's staged rows: blocks laid out for the insert (staged.ts), or the one file of msgpack maps a perform
 * before decision 0027 staged (decoded and checked again here).
 */
async function stagedRows(deps: AppDeps, session: SessionRow, token: string, limits: PartLimits): Promise<Staged> {
  const files = performFiles(session, token);
  const manifestFile = await localCopy(deps, session.account_id, files.manifest);
  let manifest: Manifest | null = null;
  try {
    manifest = readManifest(await readFile(manifestFile.path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  } finally {
    await manifestFile.release();
  }
  if (!manifest) {
    const legacy = await localCopy(deps, session.account_id, files.legacyStaged);
    return {
      async append(t, table, now) {
        let n = 0;
        for (const records of stagedRecords(legacy.path, limits)) {
          await t.append(table, records, now);
          n += records.length;
        }
        return n;
      },
      release: legacy.release,
    };
  }
  const { columns, files: names } = manifest;
  const copies: LocalCopy[] = [];
  try {
    for (const name of names) copies.push(await localCopy(deps, session.account_id, `${files.stagedDir}/${name}`));
  } catch (err) {
    await Promise.all(copies.map((c) => c.release()));
    throw err;
  }
  return {
    async append(t, table, now) {
      let n = 0;
      const counted = function* () {
        for (const block of readBlocks(copies.map((c) => c.path))) {
          n += block.time.length;
          yield block;
        }
      };
      await t.appendBlocks(table, columns, counted(), now);
      return n;
    },
    release: async () => {
      await Promise.all(copies.map((c) => c.release()));
    },
  };
}
