import type pg from 'pg';
import { WarehouseError } from './connection';
import type { SourceColumnInfo } from './typeMap';

/** Catalog queries on the warehouse: databases, schemas, tables and a table's columns. */

const HIDDEN_SCHEMAS = "('pg_catalog', 'information_schema', 'pg_toast')";

export async function listDatabases(client: pg.Client): Promise<{ name: string }[]> {
  const r = await client.query<{ name: string }>(
    'SELECT datname AS name FROM pg_database WHERE NOT datistemplate AND datallowconn ORDER BY datname',
  );
  return r.rows;
}

export async function listSchemas(client: pg.Client): Promise<{ name: string }[]> {
  const r = await client.query<{ name: string }>(
    `SELECT nspname AS name FROM pg_namespace
     WHERE nspname NOT IN ${HIDDEN_SCHEMAS} AND nspname NOT LIKE 'pg_temp_%' AND nspname NOT LIKE 'pg_toast_temp_%'
       AND has_schema_privilege(oid, 'USAGE')
     ORDER BY nspname`,
  );
  return r.rows;
}

export async function listTables(
  client: pg.Client,
  schema: string | null,
): Promise<{ schema: string; name: string; kind: 'table' | 'view'; estimated_rows: number | null }[]> {
  const r = await client.query<{ schema: string; name: string; relkind: string; reltuples: string }>(
    `SELECT n.nspname AS schema, c.relname AS name, c.relkind, c.reltuples::bigint::text AS reltuples
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm') AND n.nspname NOT IN ${HIDDEN_SCHEMAS}
       AND ($1::text IS NULL OR n.nspname = $1) AND has_table_privilege(c.oid, 'SELECT')
     ORDER BY n.nspname, c.relname LIMIT 5000`,
    [schema],
  );
  return r.rows.map((row) => {
    const estimate = Number(row.reltuples);
    return {
      schema: row.schema,
      name: row.name,
      kind: row.relkind === 'v' || row.relkind === 'm' ? 'view' : 'table',
      estimated_rows: Number.isFinite(estimate) && estimate >= 0 ? estimate : null,
    };
  });
}

/** The table's columns in order, with type facts and primary-key membership; a missing table is an error. */
export async function describeTable(client: pg.Client, schema: string, table: string): Promise<SourceColumnInfo[]> {
  const exists = await client.query<{ oid: string | null }>(
    `SELECT c.oid::text AS oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p', 'v', 'm')`,
    [schema, table],
  );
  const oid = exists.rows[0]?.oid;
  if (!oid) {
    throw new WarehouseError(`The source table "${schema}.${table}" does not exist (was it dropped or renamed?).`);
  }
  const r = await client.query<{
    name: string;
    source_type: string;
    typname: string;
    category: string;
    notnull: string;
    pk: string;
  }>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS source_type,
       coalesce(bt.typname, t.typname) AS typname, coalesce(bt.typcategory, t.typcategory) AS category,
       a.attnotnull::text AS notnull,
       (EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary
                AND a.attnum = ANY (i.indkey)))::text AS pk
     FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
       LEFT JOIN pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype
     WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY a.attnum`,
    [oid],
  );
  return r.rows.map((row) => ({
    name: row.name,
    source_type: row.source_type,
    typname: row.typname,
    category: row.category,
    nullable: row.notnull !== 'true',
    primary_key: row.pk === 'true',
  }));
}
