import { sql } from 'kysely';
import type { AppDeps } from '../platform/context';
import {
  copyRows,
  customerSchema,
  type Executor,
  many,
  one,
  pgIdentifier,
  run,
  transaction,
} from '../platform/storage';
import { type DatabaseRow, findTable, type TableRow } from './catalog';
import { catalogFigures } from './catalogFigures';
import { readAs, readMetaSchema, readTableSchema, type SchemaEntry, type Stored, storeAs } from './columns';
import { type DataPlane, type DataTx, type Meta, type PreparedRecord, SWAP_NAME, tableLimits } from './plane';
import { FIGURES, figuresDdl, pgValue, postgresType, quote, renameTable } from './postgresTables';
import { type BlockFigures, type ColumnSummary, type RowBlock, storedSchemaRows, summaryGrowth } from './rowBlocks';
import { grownMeta, lastPerKey, planSchema, rowBytes, schemaGrowth, shrunkMeta, storedRows } from './rows';

/**
 * The PostgreSQL data plane: one schema per customer database (`customerSchema(id)`, named from the id,
 * which never changes), each customer table a real typed table with an index on `time`, and the figures
 * table `"_svc$tables"` in the same schema. Writes run in worker threads (decision 0030), each in one
 * transaction with its figures. Values are exactly those SQLite stores (booleans 0/1, arrays and maps as JSON text).
 */

/** The database a transaction writes, and the service's clock: its saved figures then reach the catalog. */
interface CatalogOf {
  database: DatabaseRow;
  now: () => number;
}

function schemaTx(schema: string, ex: Executor, catalog?: CatalogOf): DataTx {
  const tableSql = (name: string) => `${quote(schema)}.${quote(pgIdentifier(name))}`;
  const figures = sql.raw(tableSql(FIGURES));
  const col = (name: string) => quote(pgIdentifier(name));

  const readMeta = (name: string) => one<Meta>(ex, sql`SELECT * FROM ${figures} WHERE name = ${name}`);

  /**
   * Saves the figures, and with them in ONE statement (a step of a WITH) the catalog's copy: a write's
   * statements are round trips a request waits for.
   */
  const saveMeta = (m: Meta) => {
    const figuresUpdate = sql`UPDATE ${figures} SET schema_json = ${m.schema_json}, row_count = ${m.row_count},
            bytes = ${m.bytes}, max_time = ${m.max_time}, updated_at = ${m.updated_at} WHERE name = ${m.name}`;
    if (!catalog) return run(ex, figuresUpdate);
    const last = catalogFigures(catalog.database, m, m.updated_at ?? catalog.now());
    return run(ex, sql`WITH step0 AS (${figuresUpdate}) ${last}`);
  };

  /**
   * Writers of one table on different nodes take turns until their transactions end: each reads the figures
   * and columns, then may add columns or create the table, which the other must see first. (Within a node
   * the lane already orders them.)
   */
  const lockTable = (name: string) =>
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${schema}.${name}`}, 0))`.execute(ex);

  async function ensureDataTable(table: TableRow): Promise<Meta> {
    await lockTable(table.name);
    const existing = await readMeta(table.name);
    if (existing) return existing;
    const schema = readTableSchema(table.schema_json);
    const columns = schema.map(([name, type]) => `, ${col(name)} ${postgresType(type)}`).join('');
    await sql.raw(`DROP TABLE IF EXISTS ${tableSql(table.name)}`).execute(ex);
    await sql.raw(`CREATE TABLE ${tableSql(table.name)} (time BIGINT NOT NULL${columns})`).execute(ex);
    await sql
      .raw(`CREATE INDEX ${quote(pgIdentifier(`${table.name}$time`))} ON ${tableSql(table.name)} (time)`)
      .execute(ex);
    await run(
      ex,
      sql`INSERT INTO ${figures} (name, schema_json, row_count, bytes, max_time, updated_at)
          VALUES (${table.name}, ${table.schema_json}, 0, 0, NULL, NULL)`,
    );
    return {
      name: table.name,
      schema_json: table.schema_json,
      row_count: 0,
      bytes: 0,
      max_time: null,
      updated_at: null,
    };
  }

  /** Changes a column's type with real ALTERs, converting values the way writes convert them. */
  async function convertColumn(tableName: string, column: string, from: string, to: string): Promise<void> {
    const target = tableSql(tableName);
    const tmp = col(`${column}$new`);
    await sql.raw(`ALTER TABLE ${target} ADD COLUMN ${tmp} ${postgresType(to)}`).execute(ex);
    const rows = await many<{ id: string; v: unknown }>(
      ex,
      sql.raw(`SELECT ctid::text AS id, ${col(column)} AS v FROM ${target} WHERE ${col(column)} IS NOT NULL`),
    );
    const arrayType = `${postgresType(to)}[]`;
    for (let at = 0; at < rows.length; at += 10_000) {
      const page = rows.slice(at, at + 10_000);
      const values = page.map((r) => pgValue(storeAs(to, readAs(from, r.v))));
      await run(
        ex,
        sql`UPDATE ${sql.raw(target)} SET ${sql.raw(tmp)} = u.v
            FROM unnest(${page.map((r) => r.id)}::tid[], ${values}::${sql.raw(arrayType)}) AS u(id, v)
            WHERE ${sql.raw(target)}.ctid = u.id`,
      );
    }
    await sql.raw(`ALTER TABLE ${target} DROP COLUMN ${col(column)}`).execute(ex);
    await sql.raw(`ALTER TABLE ${target} RENAME COLUMN ${tmp} TO ${col(column)}`).execute(ex);
  }

  async function applySchema(meta: Meta, schema: SchemaEntry[], dropMissing: boolean): Promise<SchemaEntry[]> {
    const plan = planSchema(readMetaSchema(meta.schema_json), schema, dropMissing, tableLimits.maxColumns);
    const target = tableSql(meta.name);
    if (plan.add.length > 0) {
      const adds = plan.add.map(([name, type]) => `ADD COLUMN ${col(name)} ${postgresType(type)}`).join(', ');
      await sql.raw(`ALTER TABLE ${target} ${adds}`).execute(ex);
    }
    for (const c of plan.convert) await convertColumn(meta.name, c.name, c.from, c.to);
    if (plan.drop.length > 0) {
      await sql.raw(`ALTER TABLE ${target} ${plan.drop.map((n) => `DROP COLUMN ${col(n)}`).join(', ')}`).execute(ex);
    }
    meta.schema_json = JSON.stringify(plan.next);
    return plan.next;
  }

  /** The schema once the records' new columns are added (and whole-number columns widened). */
  async function grown(meta: Meta, records: PreparedRecord[]): Promise<SchemaEntry[]> {
    const schema = readMetaSchema(meta.schema_json);
    const growth = schemaGrowth(schema, records);
    return growth.length > 0 ? applySchema(meta, growth, false) : schema;
  }

  /** The rows through COPY, then the figures: markers, rows and figures all in the caller's transaction. */
  async function insertRecords(meta: Meta, schema: SchemaEntry[], records: PreparedRecord[], now: number) {
    const columns = ['time', ...schema.map(([name]) => name)];
    const rows: Stored[][] = [];
    const figures = storedRows(schema, records, (row) => rows.push(row));
    if (rows.length > 0) await copyRows(ex, tableSql(meta.name), columns.map(col), rows);
    Object.assign(meta, grownMeta(meta, records.length, figures), { updated_at: now });
    await saveMeta(meta);
    return meta;
  }

  /**
   * Staged blocks (plane.ts `appendBlocks`): the summary's columns first, then ONE COPY of every block's rows,
   * laid out as COPY text while PostgreSQL reads the text before (no round trip per block).
   */
  async function insertBlocks(meta: Meta, summary: ColumnSummary, blocks: Iterable<RowBlock>, now: number) {
    let schema = readMetaSchema(meta.schema_json);
    const growth = summaryGrowth(schema, summary);
    if (growth.length > 0) schema = await applySchema(meta, growth, false);
    const figures: BlockFigures = { rows: 0, bytes: 0, maxTime: null };
    const columns = ['time', ...schema.map(([name]) => name)].map(col);
    await copyRows(ex, tableSql(meta.name), columns, storedSchemaRows(schema, blocks, figures));
    Object.assign(meta, grownMeta(meta, figures.rows, figures), { updated_at: now });
    await saveMeta(meta);
    return meta;
  }

  return {
    ex,
    figuresInCatalog: catalog !== undefined,
    // A move of the table (one transaction taking the same lock first) may have just taken its data and catalog
    // row to another database: a write that read the catalog before must not make an orphan table here.
    ...(catalog && {
      async holdsTable(name: string) {
        await lockTable(name);
        return (await findTable(ex, catalog.database.account_id, catalog.database.id, name)) !== null;
      },
    }),
    table: (name) => sql.raw(tableSql(name)),
    async hasTable(name) {
      const found = await one<{ r: string | null }>(ex, sql`SELECT to_regclass(${tableSql(name)})::text AS r`);
      return found?.r != null;
    },
    async ensureTable(name, columns) {
      await lockTable(name);
      await sql.raw(`CREATE TABLE IF NOT EXISTS ${tableSql(name)} (${columns})`).execute(ex);
    },
    ensureDataTable,
    async append(table: TableRow, records: PreparedRecord[], now: number) {
      const meta = await ensureDataTable(table);
      return insertRecords(meta, await grown(meta, records), records, now);
    },
    async appendBlocks(table: TableRow, summary: ColumnSummary, blocks: Iterable<RowBlock>, now: number) {
      return insertBlocks(await ensureDataTable(table), summary, blocks, now);
    },
    async merge(table: TableRow, records: PreparedRecord[], key: string[], now: number) {
      const meta = await ensureDataTable(table);
      const schema = await grown(meta, records);
      const keyed = lastPerKey(table.name, schema, records, key);
      const target = tableSql(meta.name);
      await sql
        .raw(
          `CREATE INDEX IF NOT EXISTS ${quote(pgIdentifier(`${meta.name}$key:${key.join(',')}`))} ON ${target} (${key.map(col).join(', ')})`,
        )
        .execute(ex);
      const types = new Map(schema.map(([name, type]) => [name, postgresType(type)]));
      const columns = sql.raw(key.map((_, i) => `k${i}`).join(', '));
      const match = sql.raw(key.map((k, i) => `t.${col(k)} = u.k${i}`).join(' AND '));
      let replaced = 0;
      let bytes = 0;
      for (let at = 0; at < keyed.keys.length; at += 10_000) {
        const page = keyed.keys.slice(at, at + 10_000);
        const arrays = key.map(
          (k, i) =>
            sql`${page.map((values) => pgValue(values[i] as Stored))}::${sql.raw(`${types.get(k) ?? 'TEXT'}[]`)}`,
        );
        const removed = await many<Record<string, unknown>>(
          ex,
          sql`DELETE FROM ${sql.raw(target)} AS t USING unnest(${sql.join(arrays)}) AS u(${columns})
              WHERE ${match} RETURNING t.*`,
        );
        replaced += removed.length;
        for (const row of removed) bytes += rowBytes(row);
      }
      await insertRecords(meta, schema, keyed.records, now);
      if (replaced > 0) {
        const max = await one<{ m: number | null }>(ex, sql`SELECT max(time) AS m FROM ${sql.raw(target)}`);
        Object.assign(meta, shrunkMeta(meta, replaced, bytes, max?.m ?? null));
        await saveMeta(meta);
      }
      return { meta, inserted: keyed.records.length, replaced };
    },
    async changeSchema(table: TableRow, schema: SchemaEntry[], mode: 'replace' | 'append') {
      const meta = await ensureDataTable(table);
      await applySchema(meta, schema, mode === 'replace');
      await run(ex, sql`UPDATE ${figures} SET schema_json = ${meta.schema_json} WHERE name = ${meta.name}`);
      return meta;
    },
    async dropTable(name: string) {
      await sql.raw(`DROP TABLE IF EXISTS ${tableSql(name)}`).execute(ex);
      await run(ex, sql`DELETE FROM ${figures} WHERE name = ${name}`);
    },
  };
}

declare module '../platform/context' {
  interface Services {
    /**
     * Customer schemas seen to exist on this node, so a write does not ask again each time. A schema is named
     * from its database's id, which PostgreSQL never hands out twice, so once there it stays until a delete
     * drops it; a database deleted by another node takes no more writes (every writer finds it in the catalog
     * first).
     */
    knownSchemas: Set<string>;
  }
}

export function postgresPlane(deps: AppDeps): DataPlane {
  const db = deps.storage.db;
  // Deps without services (no app) remember nothing: each write asks.
  const seen = deps.services?.knownSchemas ?? new Set<string>();
  const exists = async (schema: string) => {
    if (seen.has(schema)) return true;
    const found = await one<{ r: string | null }>(
      db,
      sql`SELECT to_regclass(${`${quote(schema)}.${quote(FIGURES)}`})::text AS r`,
    );
    if (found?.r == null) return false;
    seen.add(schema);
    return true;
  };
  const createDatabase = async (database: DatabaseRow) => {
    const schema = customerSchema(database.id);
    await transaction(db, async (tx) => {
      await sql.raw(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)}`).execute(tx);
      await sql.raw(figuresDdl(schema)).execute(tx);
    });
    seen.add(schema);
  };
  return {
    engine: 'postgres',
    createDatabase,
    async deleteDatabase(database) {
      const schema = customerSchema(database.id);
      seen.delete(schema);
      await sql.raw(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`).execute(db);
    },
    async transaction(database, fn) {
      const schema = customerSchema(database.id);
      // A database created before its schema could be (or by an older node) gets it on first write.
      if (!(await exists(schema))) await createDatabase(database);
      const catalog = { database, now: () => deps.clock.now().getTime() };
      return transaction(db, (tx) => fn(schemaTx(schema, tx, catalog)));
    },
    async figures(database) {
      const schema = customerSchema(database.id);
      if (!(await exists(schema))) return [];
      return many<Meta>(db, sql`SELECT * FROM ${sql.raw(`${quote(schema)}.${quote(FIGURES)}`)} ORDER BY name`);
    },
    async tail(database, table, count) {
      const schema = customerSchema(database.id);
      if (!(await exists(schema))) return null;
      const t = schemaTx(schema, db);
      const meta = await one<Meta>(
        db,
        sql`SELECT * FROM ${sql.raw(`${quote(schema)}.${quote(FIGURES)}`)} WHERE name = ${table}`,
      );
      if (!meta) return null;
      const names = ['time', ...readMetaSchema(meta.schema_json).map(([name]) => name)];
      // Positional aliases: an alias is an identifier too, and would be cut at 63 bytes.
      const list = sql.raw(names.map((n, i) => `${quote(pgIdentifier(n))} AS c${i}`).join(', '));
      const raw = await many<Record<string, unknown>>(
        db,
        sql`SELECT ${list} FROM ${t.table(table)} ORDER BY time DESC, ctid DESC LIMIT ${count}`,
      );
      const rows = raw.map((r) => Object.fromEntries(names.map((n, i) => [n, r[`c${i}`] ?? null])));
      return { meta, rows };
    },
    async rows(database, table) {
      const schema = customerSchema(database.id);
      if (!(await exists(schema))) return [];
      const t = schemaTx(schema, db);
      if (!(await t.hasTable(table))) return [];
      return many<Record<string, unknown>>(db, sql`SELECT * FROM ${t.table(table)} ORDER BY time, ctid`);
    },
    async swapTables(database, a, b, catalog) {
      const schema = customerSchema(database.id);
      if (!(await exists(schema))) await createDatabase(database);
      await transaction(db, async (tx) => {
        const t = schemaTx(schema, tx);
        // In name order, as any two writers of both take their locks, so they never wait on each other.
        for (const row of [a, b].sort((x, y) => (x.name < y.name ? -1 : 1))) await t.ensureDataTable(row);
        for (const [from, to] of [
          [a.name, SWAP_NAME],
          [b.name, a.name],
          [SWAP_NAME, b.name],
        ] as const) {
          await renameTable(schema, tx, from, to);
        }
        await catalog(tx);
      });
    },
    async moveTable(from, to, table, catalog) {
      const [source, dest] = [customerSchema(from.id), customerSchema(to.id)];
      if (!(await exists(source))) await createDatabase(from);
      if (!(await exists(dest))) await createDatabase(to);
      await transaction(db, async (tx) => {
        await schemaTx(source, tx).ensureDataTable(table);
        await schemaTx(dest, tx).dropTable(table.name);
        // The table's indexes move with it.
        await sql
          .raw(`ALTER TABLE ${quote(source)}.${quote(pgIdentifier(table.name))} SET SCHEMA ${quote(dest)}`)
          .execute(tx);
        const [sourceFigures, destFigures] = [source, dest].map((s) => sql.raw(`${quote(s)}.${quote(FIGURES)}`));
        await run(tx, sql`INSERT INTO ${destFigures} SELECT * FROM ${sourceFigures} WHERE name = ${table.name}`);
        await run(tx, sql`DELETE FROM ${sourceFigures} WHERE name = ${table.name}`);
        await catalog(tx);
      });
    },
  };
}
