import {
  type DatabaseRow,
  type DerivedBuild,
  type DerivedDialect,
  type DerivedSetRef,
  type DerivedSets,
  type DerivedSource,
  derivedSets,
  findDatabase,
} from '../data';
import type { AppDeps } from '../platform/context';
import { one, sql } from '../platform/storage';
import type { Definition, StoredAttribute, StoredBehavior, StoredBehaviorColumn } from './definition';
import { definitionOf, type ParentSegmentRow, publishBuild } from './store';

/**
 * The profile set ("matrix") of a parent segment: a derived set of the data plane (data/derived.ts), so a
 * file of its own on SQLite (`<dataDir>/audiences/<accountId>/<id>.sqlite`, as before) and a schema of its
 * own on PostgreSQL (`audience_<id>`, the `matrixDatabaseName` the wire shows). A job builds a whole new
 * version from the customer tables with the SQL below, written once for every engine (what differs comes
 * from the derived set's dialect: SQLite, PostgreSQL or DuckDB), and swaps it in with the build's publication.
 *
 * - `profiles`: `key` (the master key as text, one row per distinct non-null value) and one column per
 *   attribute (`a<id>`), holding the value of the newest master row (by `time`) of that key, or of the
 *   newest row of the attribute's table whose foreign key matches; `k_<column>` keeps, as text, other master
 *   columns that attributes or behaviors join on.
 * - `b<id>` per behavior: `key` (the profile), `time`, and the selected columns (`c_<column>`), indexed
 *   by (key, time).
 *
 * Names come from checked identifiers only (table names match the name rule, columns the column rule).
 */

export const attributeColumn = (a: Pick<StoredAttribute, 'id'>) => `a${a.id}`;
export const behaviorTable = (b: Pick<StoredBehavior, 'id'>) => `b${b.id}`;
export const behaviorColumnName = (c: Pick<StoredBehaviorColumn, 'column'>) => `c_${c.column}`;
const keyColumn = (column: string) => `k_${column}`;

/** The derived set holding a parent segment's profiles. */
export function profileSet(row: { account_id: number; id: number }): DerivedSetRef {
  return { kind: 'audience', accountId: row.account_id, id: row.id };
}

/** Which profiles column holds a master column used for joins. */
function profileKeyColumn(def: Definition, parentKey: string): string {
  return parentKey === def.master.key ? 'key' : keyColumn(parentKey);
}

/** The customer databases and tables the definition reads, each with the columns it reads (besides `time`). */
async function sourcesOf(deps: AppDeps, accountId: number, def: Definition) {
  const onMaster = def.attributes.filter((a) => a.foreignKey === null);
  const reads = [
    {
      database: def.master.database,
      table: def.master.table,
      columns: [
        def.master.key,
        ...onMaster.map((a) => a.column),
        ...[...def.attributes, ...def.behaviors].map((x) => x.parentKey),
      ],
    },
    ...def.attributes
      .filter((a) => a.foreignKey !== null)
      .map((a) => ({ database: a.database, table: a.table, columns: [a.foreignKey as string, a.column] })),
    ...def.behaviors.map((b) => ({
      database: b.database,
      table: b.table,
      columns: [b.foreignKey, ...b.columns.map((c) => c.column)],
    })),
  ];
  const databases = new Map<string, DatabaseRow>();
  const sources: DerivedSource[] = [];
  for (const { database, table, columns } of reads) {
    let row = databases.get(database);
    if (!row) {
      row = (await findDatabase(deps.storage.db, accountId, database)) ?? undefined;
      if (!row) throw new Error(`The database "${database}" no longer exists; import data into it first.`);
      databases.set(database, row);
    }
    const id = row.id;
    const known = sources.find((s) => s.database.id === id && s.table === table);
    if (known) known.columns = [...new Set([...(known.columns ?? []), ...columns])];
    else sources.push({ database: row, table, columns: [...new Set(columns)] });
  }
  return { sources, databaseOf: (name: string) => databases.get(name) as DatabaseRow };
}

interface Writing {
  d: DerivedDialect;
  b: DerivedBuild;
  def: Definition;
  databaseOf(name: string): DatabaseRow;
  /** Yields to the loop and throws when the build was cancelled (a job kill is seen between statements). */
  step(): Promise<void>;
}

/** Builds `profiles` and the behavior tables; returns the number of profiles. */
async function writeProfiles({ d, b, def, databaseOf, step }: Writing): Promise<number> {
  const id = d.ident;
  const exec = (text: string) => sql.raw(text).execute(b.ex);
  const src = (database: string, table: string) => b.source(databaseOf(database), table);
  const text = (expr: string) => `CAST(${expr} AS TEXT)`;
  const onMaster = def.attributes.filter((a) => a.foreignKey === null);
  const joined = def.attributes.filter((a) => a.foreignKey !== null);
  const keys = [
    ...new Set([...def.attributes, ...def.behaviors].map((x) => x.parentKey).filter((k) => k !== def.master.key)),
  ];
  const master = d.newestPerKey({
    key: text(`m.${id(def.master.key)}`),
    values: [...onMaster.map((a) => `m.${id(a.column)}`), ...keys.map((k) => text(`m.${id(k)}`))],
    time: 'm."time"',
    from: `${src(def.master.database, def.master.table)} m`,
    where: `m.${id(def.master.key)} IS NOT NULL`,
  });
  const columns = [
    'm.k AS key',
    ...onMaster.map((a, i) => `m.v${i} AS ${id(attributeColumn(a))}`),
    ...keys.map((k, i) => `m.v${onMaster.length + i} AS ${id(keyColumn(k))}`),
  ];
  // Attributes of other tables: the newest row of each foreign key, one join per table and key pair.
  const groups = new Map<string, StoredAttribute[]>();
  for (const a of joined) {
    const g = `${a.database}\n${a.table}\n${a.foreignKey}\n${a.parentKey}`;
    groups.set(g, [...(groups.get(g) ?? []), a]);
  }
  const joins = [...groups.values()].map((list, g) => {
    const first = list[0] as StoredAttribute;
    const foreign = `t.${id(first.foreignKey as string)}`;
    const newest = d.newestPerKey({
      key: text(foreign),
      values: list.map((a) => `t.${id(a.column)}`),
      time: 't."time"',
      from: `${src(first.database, first.table)} t`,
      where: `${foreign} IS NOT NULL`,
    });
    const on = first.parentKey === def.master.key ? 'm.k' : `m.v${onMaster.length + keys.indexOf(first.parentKey)}`;
    columns.push(...list.map((a, i) => `j${g}.v${i} AS ${id(attributeColumn(a))}`));
    return `LEFT JOIN (${newest}) j${g} ON j${g}.k = ${on}`;
  });
  await step();
  await exec(`CREATE TABLE profiles AS SELECT ${columns.join(', ')} FROM (${master}) m ${joins.join(' ')}`);
  // `$` is in no column name, so these index names never meet another.
  const index = (text: string) => (d.indexes ? exec(text) : Promise.resolve());
  await index(`CREATE UNIQUE INDEX ${id('profiles$key')} ON profiles (key)`);
  for (const k of keys) await index(`CREATE INDEX ${id(`profiles$${k}`)} ON profiles (${id(keyColumn(k))})`);
  await step();
  for (const behavior of def.behaviors) {
    const table = id(behaviorTable(behavior));
    const picked = behavior.columns.map((c) => `, t.${id(c.column)} AS ${id(behaviorColumnName(c))}`).join('');
    await exec(
      `CREATE TABLE ${table} AS SELECT p.key AS key, t."time" AS "time"${picked}
       FROM ${src(behavior.database, behavior.table)} t
       JOIN profiles p ON p.${id(profileKeyColumn(def, behavior.parentKey))} = ${text(`t.${id(behavior.foreignKey)}`)}`,
    );
    await index(`CREATE INDEX ${id(`${behaviorTable(behavior)}$key`)} ON ${table} (key, "time")`);
    await step();
  }
  const counted = await one<{ n: number }>(b.ex, sql`SELECT COUNT(*) AS n FROM profiles`);
  return Number(counted?.n ?? 0);
}

/**
 * Builds the parent segment's profiles from its current definition and publishes them (population, build
 * time, the definition built) unless a newer build was started meanwhile. Runs as a background task. `sets`
 * is the data plane's (benches name DuckDB's before it is the embedded default).
 */
export async function buildProfiles(
  deps: AppDeps,
  row: ParentSegmentRow,
  jobId: number,
  signal: AbortSignal,
  sets: DerivedSets = derivedSets(deps),
): Promise<number> {
  const def = definitionOf(row);
  const { sources, databaseOf } = await sourcesOf(deps, row.account_id, def);
  const step = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    signal.throwIfAborted();
  };
  const d = sets.dialect;
  return sets.build(
    profileSet(row),
    sources,
    (b) => writeProfiles({ d, b, def, databaseOf, step }),
    async (control, population) => {
      const at = deps.clock.now().getTime();
      if (!(await publishBuild(control, row, { jobId, population, at, definition: def }))) {
        throw new Error('A newer build of this parent segment started, or it was deleted; this build is discarded.');
      }
    },
  );
}

/** Deletes a parent segment's profiles. */
export function removeProfiles(deps: AppDeps, accountId: number, id: number): Promise<void> {
  return derivedSets(deps).remove(profileSet({ account_id: accountId, id }));
}
