import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from '../data/catalog';
import { findDatabaseSync as findDatabase } from '../data/catalogSync';
import type { AppDeps } from '../platform/context';
import type { Definition, StoredAttribute, StoredBehavior, StoredBehaviorColumn } from './definition';
import { compilePattern } from './rules/regexp';
import { definitionOf, type ParentSegmentRow, parentSegmentRow, publishBuild } from './store';

/**
 * The profile set ("matrix") of a parent segment: one SQLite file per parent segment,
 * `<dataDir>/audiences/<accountId>/<id>.sqlite`, built by a job from the customer database files (ATTACHed
 * read-only in spirit: the build only SELECTs from them) into a new file that replaces the old one by
 * rename, so readers always see a whole build.
 *
 * - `profiles`: `key` (the master key as text, one row per distinct non-null value) and one column per
 *   attribute (`a<id>`), holding the value of the newest master row (by `time`) of that key, or of the
 *   newest row of the attribute's table whose foreign key matches; `k_<column>` keeps other master columns
 *   that attributes or behaviors join on.
 * - `b<id>` per behavior: `key` (the profile), `time`, and the selected columns (`c_<column>`), indexed
 *   by (key, time).
 *
 * Names come from checked identifiers only (table names match the name rule, columns the column rule).
 */

export const attributeColumn = (a: Pick<StoredAttribute, 'id'>) => `a${a.id}`;
export const behaviorTable = (b: Pick<StoredBehavior, 'id'>) => `b${b.id}`;
export const behaviorColumnName = (c: Pick<StoredBehaviorColumn, 'column'>) => `c_${c.column}`;
const keyColumn = (column: string) => `k_${column}`;
const q = (name: string) => `"${name}"`;

export function matrixFile(dataDir: string, accountId: number, id: number): string {
  return join(dataDir, 'audiences', String(accountId), `${id}.sqlite`);
}

/** Which profiles column holds a master column used for joins. */
function profileKeyColumn(def: Definition, parentKey: string): string {
  return parentKey === def.master.key ? 'key' : keyColumn(parentKey);
}

function attachAll(deps: AppDeps, db: Database.Database, accountId: number, def: Definition): Map<string, string> {
  const aliases = new Map<string, string>();
  const tables = [
    def.master,
    ...def.attributes.map((a) => ({ database: a.database, table: a.table })),
    ...def.behaviors.map((b) => ({ database: b.database, table: b.table })),
  ];
  for (const { database, table } of tables) {
    let alias = aliases.get(database);
    if (!alias) {
      const row = findDatabase(deps.db, accountId, database);
      const file = row ? databaseFile(deps.config.dataDir, accountId, row.id) : null;
      if (!file || !existsSync(file))
        throw new Error(`The database "${database}" has no data file; import data first.`);
      alias = `s${aliases.size}`;
      db.prepare(`ATTACH DATABASE ? AS ${alias}`).run(file);
      aliases.set(database, alias);
    }
    const found = db.prepare(`SELECT 1 FROM ${alias}.sqlite_master WHERE type = 'table' AND name = ?`).get(table);
    if (!found) throw new Error(`The table "${database}.${table}" has no rows yet; import data into it first.`);
  }
  return aliases;
}

/**
 * Builds the profile file into `target`; returns the number of profiles. Runs in a background worker,
 * which sees a cancellation (a job kill) between two steps.
 */
async function writeMatrix(
  deps: AppDeps,
  db: Database.Database,
  accountId: number,
  def: Definition,
  signal: AbortSignal,
): Promise<number> {
  const step = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    signal.throwIfAborted();
  };
  const aliases = attachAll(deps, db, accountId, def);
  const src = (database: string, table: string) => `${aliases.get(database)}.${q(table)}`;
  const onMaster = def.attributes.filter((a) => a.foreignKey === null);
  const joined = def.attributes.filter((a) => a.foreignKey !== null);
  const keys = [
    ...new Set([...def.attributes, ...def.behaviors].map((x) => x.parentKey).filter((k) => k !== def.master.key)),
  ];
  const columns = [...def.attributes.map(attributeColumn), ...keys.map(keyColumn)];
  db.exec(`CREATE TABLE profiles (key TEXT PRIMARY KEY${columns.map((c) => `, ${q(c)}`).join('')})`);
  const picked = [...onMaster.map((a) => a.column), ...keys];
  const into = [...onMaster.map(attributeColumn), ...keys.map(keyColumn)];
  db.exec(
    `INSERT INTO profiles (key${into.map((c) => `, ${q(c)}`).join('')})
     SELECT k${picked.map((_, i) => `, v${i}`).join('')} FROM (
       SELECT CAST(m.${q(def.master.key)} AS TEXT) AS k${picked.map((c, i) => `, m.${q(c)} AS v${i}`).join('')},
         MAX(m."time") FROM ${src(def.master.database, def.master.table)} m
       WHERE m.${q(def.master.key)} IS NOT NULL GROUP BY 1)`,
  );
  for (const k of keys) db.exec(`CREATE INDEX ${q(`profiles_${k}`)} ON profiles(${q(keyColumn(k))})`);
  await step();
  const groups = new Map<string, StoredAttribute[]>();
  for (const a of joined) {
    const g = `${a.database}\n${a.table}\n${a.foreignKey}\n${a.parentKey}`;
    groups.set(g, [...(groups.get(g) ?? []), a]);
  }
  let n = 0;
  for (const list of groups.values()) {
    const first = list[0] as StoredAttribute;
    const temp = `temp.j${n++}`;
    db.exec(
      `CREATE TABLE ${temp} AS SELECT k${list.map((_, i) => `, v${i}`).join('')} FROM (
         SELECT CAST(t.${q(first.foreignKey as string)} AS TEXT) AS k${list.map((a, i) => `, t.${q(a.column)} AS v${i}`).join('')},
           MAX(t."time") FROM ${src(first.database, first.table)} t
         WHERE t.${q(first.foreignKey as string)} IS NOT NULL GROUP BY 1)`,
    );
    db.exec(`CREATE INDEX ${temp}_k ON j${n - 1}(k)`);
    const target = profileKeyColumn(def, first.parentKey);
    db.exec(
      `UPDATE profiles SET (${list.map((a) => q(attributeColumn(a))).join(', ')}) =
         (SELECT ${list.map((_, i) => `v${i}`).join(', ')} FROM ${temp} WHERE ${temp}.k = profiles.${q(target)})`,
    );
    await step();
  }
  for (const b of def.behaviors) {
    const table = q(behaviorTable(b));
    const cols = b.columns.map((c) => q(behaviorColumnName(c)));
    db.exec(`CREATE TABLE ${table} (key TEXT NOT NULL, time INTEGER${cols.map((c) => `, ${c}`).join('')})`);
    db.exec(
      `INSERT INTO ${table} SELECT p.key, t."time"${b.columns.map((c) => `, t.${q(c.column)}`).join('')}
       FROM ${src(b.database, b.table)} t JOIN profiles p ON p.${q(profileKeyColumn(def, b.parentKey))} = CAST(t.${q(b.foreignKey)} AS TEXT)`,
    );
    db.exec(`CREATE INDEX ${q(`${behaviorTable(b)}_key`)} ON ${table}(key, time)`);
    await step();
  }
  const { population } = db.prepare('SELECT COUNT(*) AS population FROM profiles').get() as { population: number };
  for (const alias of aliases.values()) db.exec(`DETACH DATABASE ${alias}`);
  return population;
}

/**
 * Builds the parent segment's profile file from its current definition and publishes it (population,
 * build time, the definition built) unless a newer build was started meanwhile.
 */
export async function buildProfiles(
  deps: AppDeps,
  row: ParentSegmentRow,
  jobId: number,
  signal: AbortSignal,
): Promise<number> {
  const def = definitionOf(row);
  const target = matrixFile(deps.config.dataDir, row.account_id, row.id);
  const temp = `${target}.${jobId}.building`;
  mkdirSync(dirname(target), { recursive: true });
  rmSync(temp, { force: true });
  const db = new Database(temp);
  let population: number;
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    population = await writeMatrix(deps, db, row.account_id, def, signal);
    db.pragma('journal_mode = DELETE');
    db.close();
  } catch (err) {
    if (db.open) db.close();
    rmSync(temp, { force: true });
    throw err;
  }
  const current = parentSegmentRow(deps.db, row.account_id, row.id);
  if (!current || current.build_job_id !== jobId) {
    rmSync(temp, { force: true });
    throw new Error('A newer build of this parent segment started, or it was deleted; this build is discarded.');
  }
  renameSync(temp, target);
  publishBuild(deps.db, row, { population, at: deps.clock.now().getTime(), definition: def });
  return population;
}

/** Deletes a parent segment's profile file. */
export function removeProfiles(deps: AppDeps, accountId: number, id: number): void {
  rmSync(matrixFile(deps.config.dataDir, accountId, id), { force: true });
}

/** Opens the built profile file read-only with the functions rules use; null before the first build. */
export function openProfiles(deps: AppDeps, accountId: number, id: number): Database.Database | null {
  const file = matrixFile(deps.config.dataDir, accountId, id);
  if (!existsSync(file)) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.function('svc_regexp', { deterministic: true }, (value: unknown, pattern: unknown) => {
    if (value === null || typeof pattern !== 'string') return null;
    // RE2 (linear time), checked when the rule compiled: see rules/regexp.ts.
    return compilePattern(pattern).test(String(value)) ? 1 : 0;
  });
  return db;
}
