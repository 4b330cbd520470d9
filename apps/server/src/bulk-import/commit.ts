import { closeSync, openSync, readSync } from 'node:fs';
import { decodeBatch, type PartLimits, RecordScanner } from '@svc/bulk-format';
import { requireDatabase, requireTable } from '../data/catalog';
import { closeDataFile } from '../data/dataFiles';
import { openDataFile, type PreparedRecord, refreshCatalog, writeBatches } from '../data/tableStore';
import type { AppDeps } from '../platform/context';
import { conflict } from '../platform/errors';
import { abs, performFiles } from './files';
import { RecordRules } from './records';
import type { SessionRow } from './sessions';

/**
 * Which performs have landed, kept in the customer database's own file and written in the same
 * transaction as the rows: whether a commit happened is then never in doubt, whatever the control
 * database says. `$` cannot appear in a table name, so no customer table collides with it.
 */
const COMMITS = '"_svc$bulk_commits"';

/**
 * The staged records, prepared for the table store, read synchronously (they must all go into one
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
 * and a marker naming the perform go into ONE transaction of the database's file. Calling it again, or
 * after a crash anywhere in it, finds the marker (or no trace of the rolled-back attempt) and writes
 * nothing twice. Throws 404 when the database or table is gone, 400 when the rows cannot fit the table.
 * Runs in a background worker (tasks.ts), on the worker's own connection to the file.
 */
export function landStagedRows(
  deps: AppDeps,
  session: SessionRow,
  limits: PartLimits,
  crash: (point: 'commit:rows-written' | 'commit:data-committed') => void = () => undefined,
): { inserted: number } {
  const token = session.perform_token;
  if (!token) throw conflict(`The bulk import session "${session.name}" has not been performed yet.`);
  const database = requireDatabase(deps.db, session.account_id, session.database_name);
  requireTable(deps.db, session.account_id, database.id, session.table_name);
  const f = openDataFile(deps, database);
  f.db.exec(`CREATE TABLE IF NOT EXISTS ${COMMITS} (
    token TEXT PRIMARY KEY,
    session TEXT NOT NULL,
    table_name TEXT NOT NULL,
    records INTEGER NOT NULL,
    committed_at INTEGER NOT NULL
  )`);
  const staged = abs(deps.config.dataDir, performFiles(session, token).staged);
  let inserted = 0;
  try {
    f.db.transaction(() => {
      if (f.db.prepare(`SELECT 1 FROM ${COMMITS} WHERE token = ?`).get(token)) return;
      // The table store's own transactions nest inside this one as savepoints.
      for (const records of stagedRecords(staged, limits)) {
        inserted += writeBatches(deps, database, [{ table: session.table_name, records }], undefined, {
          catalog: false,
        }).inserted;
      }
      crash('commit:rows-written');
      f.db
        .prepare(`INSERT INTO ${COMMITS} (token, session, table_name, records, committed_at) VALUES (?, ?, ?, ?, ?)`)
        .run(token, session.name, session.table_name, inserted, deps.clock.now().getTime());
    })();
  } catch (err) {
    // Rolled back: the connection's cached figures are stale; reopening the file reads them again.
    closeDataFile(deps, database);
    throw err;
  }
  refreshCatalog(deps, database);
  crash('commit:data-committed');
  return { inserted };
}
