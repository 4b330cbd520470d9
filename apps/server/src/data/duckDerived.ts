import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AppDeps } from '../platform/context';
import { makeDir } from '../platform/fileModes';
import { transaction } from '../platform/storage';
import { workIfAny } from '../platform/work';
import type { DatabaseRow } from './catalog';
import type { DerivedSetRef, DerivedSets, DerivedSource } from './derived';
import { duckDerivedDialect } from './duckDialect';
import { duckFile, duckFileExists, openPrivate, type PrivateFile, withDuck } from './duckFiles';
import { duckKysely } from './duckKysely';
import { copyDuckTable } from './duckMove';
import { dq, readDuckMeta } from './duckTables';

/**
 * Derived sets on DuckDB (derived.ts, decision 0039): one file each, `<dataDir>/<kind>s/<accountId>/<id>.duckdb`,
 * never written once in place. A build writes a new file (`<file>.<random>.building`): first the thread owning each
 * source database's file copies the source tables into it (`stageSources`, DuckDB's own data chunks, one snapshot
 * per database), then the build's statements run on it and the copies are dropped, then it is checkpointed,
 * closed, and renamed over the current file inside the control transaction that publishes it. A build that fails
 * deletes its file (a process killed mid-build leaves it). Reads open the current file read-only on an instance of
 * their own, for the read's length: a swap renames a new file over it meanwhile without disturbing them.
 */

/** The file of a derived set on DuckDB. */
export function duckDerivedFile(dataDir: string, set: DerivedSetRef): string {
  return join(dataDir, `${set.kind}s`, String(set.accountId), `${set.id}.duckdb`);
}

/** The copy of a source table in a build's file (`$` is in no table name, so it meets none of the build's). */
const stagedTable = (database: Pick<DatabaseRow, 'id'>, table: string) => `s${database.id}$${table}`;

/** A source table to copy into a build's file: `time` and `columns` (every column when absent). */
export interface StagedTable {
  table: string;
  columns?: string[];
}

/**
 * Copies source tables of one database into a build's file, in the thread that owns the database's file: read
 * in one transaction (a snapshot beside the file's writes), appended as data chunks, checkpointed and closed, so
 * the next thread can open the build's file. Each table must exist.
 */
export async function stageSources(
  dataDir: string,
  building: string,
  database: DatabaseRow,
  tables: StagedTable[],
): Promise<void> {
  const path = duckFile(dataDir, database.account_id, database.id);
  if (!duckFileExists(path)) throw new Error(`The database "${database.name}" has no data file; import data first.`);
  await withDuck(path, async (from) => {
    await from.run('BEGIN TRANSACTION');
    try {
      for (const { table } of tables) {
        if (!(await readDuckMeta(from, table))) {
          throw new Error(`The table "${database.name}.${table}" has no rows yet; import data into it first.`);
        }
      }
      const out = await openPrivate(building, false);
      try {
        for (const { table, columns } of tables) {
          await copyDuckTable(from, out.conn, table, stagedTable(database, table), '', columns);
        }
        await out.conn.run('CHECKPOINT');
      } finally {
        out.close();
      }
    } finally {
      await from.run('ROLLBACK');
    }
  });
}

/** The sources grouped by database, each table once with every column any source of it reads. */
function byDatabase(sources: DerivedSource[]): Map<number, { database: DatabaseRow; tables: StagedTable[] }> {
  const groups = new Map<number, { database: DatabaseRow; tables: StagedTable[] }>();
  for (const { database, table, columns } of sources) {
    const group = groups.get(database.id) ?? { database, tables: [] };
    const known = group.tables.find((t) => t.table === table);
    if (!known) group.tables.push({ table, columns });
    else if (known.columns) known.columns = columns ? [...new Set([...known.columns, ...columns])] : undefined;
    groups.set(database.id, group);
  }
  return groups;
}

function removeFile(path: string): void {
  for (const suffix of ['', '.wal']) rmSync(`${path}${suffix}`, { force: true });
}

export function duckDerived(deps: AppDeps): DerivedSets {
  const dataDir = deps.config.dataDir;
  /** Stages one database's tables where its file's owner is: its worker from the server, else this thread. */
  const stage = (building: string, database: DatabaseRow, tables: StagedTable[]) => {
    const pool = workIfAny(deps);
    if (!pool) return stageSources(dataDir, building, database, tables);
    const owner = duckFile(dataDir, database.account_id, database.id);
    return pool.run('data.derived-stage', { building, database, tables }, { owner });
  };

  return {
    dialect: duckDerivedDialect,
    buildsFromServer: true,

    async build(set, sources, fn, publish) {
      const target = duckDerivedFile(dataDir, set);
      const building = `${target}.${randomBytes(4).toString('hex')}.building`;
      makeDir(dirname(target));
      const groups = [...byDatabase(sources).values()];
      let open: PrivateFile | null = null;
      try {
        for (const { database, tables } of groups) await stage(building, database, tables);
        open = await openPrivate(building, false);
        const result = await fn({
          ex: duckKysely(open.conn),
          source: (database, table) => dq(stagedTable(database, table)),
        });
        for (const { database, tables } of groups) {
          for (const { table } of tables) await open.conn.run(`DROP TABLE ${dq(stagedTable(database, table))}`);
        }
        await open.conn.run('CHECKPOINT');
        open.close();
        open = null;
        // The rename is the swap; inside the control transaction, so a refused publish leaves the old file.
        await transaction(deps.storage, async (tx) => {
          await publish(tx, result);
          renameSync(building, target);
        });
        return result;
      } catch (err) {
        open?.close();
        removeFile(building);
        throw err;
      }
    },

    async read(set, fn) {
      const file = duckDerivedFile(dataDir, set);
      if (!existsSync(file)) return null;
      let open: PrivateFile;
      try {
        open = await openPrivate(file, true);
      } catch (err) {
        // Deleted meanwhile.
        if (!existsSync(file)) return null;
        throw err;
      }
      try {
        return { value: await fn(duckKysely(open.conn)) };
      } finally {
        open.close();
      }
    },

    async remove(set) {
      removeFile(duckDerivedFile(dataDir, set));
    },
  };
}
