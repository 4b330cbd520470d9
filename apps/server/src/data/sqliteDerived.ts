import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { AppDeps } from '../platform/context';
import { addSqlFunctions, type Db } from '../platform/db';
import { makeDir, touchFile } from '../platform/fileModes';
import { type DataTables, transaction } from '../platform/storage';
import { databaseFile } from './catalog';
import type { DerivedSetRef, DerivedSets, DerivedSource } from './derived';

/**
 * Derived sets on SQLite (derived.ts): one file each. A build writes a new file (`<file>.<random>.building`)
 * with journaling off, the sources ATTACHed to it, and renames it over the current file inside the control
 * transaction that publishes it; a build that fails deletes its file (a process killed mid-build leaves it).
 */

/** The file of a derived set: `<dataDir>/<kind>s/<accountId>/<id>.sqlite`. */
export function derivedFile(dataDir: string, set: DerivedSetRef): string {
  return join(dataDir, `${set.kind}s`, String(set.accountId), `${set.id}.sqlite`);
}

const q = (name: string) => `"${name}"`;

/** ATTACHes each source database once (as s0, s1…); checks every table is there. */
function attach(deps: AppDeps, db: Db, sources: DerivedSource[]): Map<number, string> {
  const aliases = new Map<number, string>();
  for (const { database, table } of sources) {
    let alias = aliases.get(database.id);
    if (!alias) {
      const file = databaseFile(deps.config.dataDir, database.account_id, database.id);
      if (!existsSync(file)) throw new Error(`The database "${database.name}" has no data file; import data first.`);
      alias = `s${aliases.size}`;
      db.prepare(`ATTACH DATABASE ? AS ${alias}`).run(file);
      aliases.set(database.id, alias);
    }
    const found = db.prepare(`SELECT 1 FROM ${alias}.sqlite_master WHERE type = 'table' AND name = ?`).get(table);
    if (!found) throw new Error(`The table "${database.name}.${table}" has no rows yet; import data into it first.`);
  }
  return aliases;
}

export function sqliteDerived(deps: AppDeps): DerivedSets {
  return {
    dialect: { ...deps.storage.dialect, numberType: 'NUMERIC', indexes: true },
    buildsFromServer: false,
    async build(set, sources, fn, publish) {
      const target = derivedFile(deps.config.dataDir, set);
      const temp = `${target}.${randomBytes(4).toString('hex')}.building`;
      makeDir(dirname(target));
      touchFile(temp);
      const db = new Database(temp);
      addSqlFunctions(db);
      const kysely = new Kysely<DataTables>({ dialect: new SqliteDialect({ database: db }) });
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        db.pragma('journal_mode = OFF');
        db.pragma('synchronous = OFF');
        const aliases = attach(deps, db, sources);
        result = await fn({
          ex: kysely,
          source: (database, table) => `${aliases.get(database.id)}.${q(table)}`,
        });
        for (const alias of aliases.values()) db.exec(`DETACH DATABASE ${alias}`);
        db.pragma('journal_mode = DELETE');
        await kysely.destroy();
        // The rename is the swap; inside the control transaction, so a refused publish leaves the old file.
        await transaction(deps.storage, async (tx) => {
          await publish(tx, result);
          renameSync(temp, target);
        });
      } catch (err) {
        if (db.open) await kysely.destroy();
        rmSync(temp, { force: true });
        throw err;
      }
      return result;
    },

    async read(set, fn) {
      const file = derivedFile(deps.config.dataDir, set);
      let db: Db;
      try {
        db = new Database(file, { readonly: true, fileMustExist: true });
      } catch (err) {
        // Never built, or deleted meanwhile.
        if (!existsSync(file)) return null;
        throw err;
      }
      addSqlFunctions(db);
      const kysely = new Kysely<DataTables>({ dialect: new SqliteDialect({ database: db }) });
      try {
        return { value: await fn(kysely) };
      } finally {
        await kysely.destroy();
      }
    },

    async remove(set) {
      rmSync(derivedFile(deps.config.dataDir, set), { force: true });
    },
  };
}
