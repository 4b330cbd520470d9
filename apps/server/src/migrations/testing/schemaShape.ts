import type pg from 'pg';
import type { Db } from '../../platform/db';

/**
 * The shape of a control database read from its catalog, the same way for SQLite and PostgreSQL, so a test
 * can compare what the two dialects of the migrations build: tables, columns, unique keys, named indexes and
 * foreign keys.
 */

export interface ColumnShape {
  name: string;
  /** In SQLite's words: INTEGER, REAL, TEXT or BLOB. */
  type: string;
  notNull: boolean;
  /** The default as written, without PostgreSQL's `::type` cast; null when none. */
  default: string | null;
  /** Equality ignores case (SQLite `COLLATE NOCASE`, PostgreSQL collation `nocase`). */
  nocase: boolean;
}

export interface KeyShape {
  /** Column names, sorted: a key is a set. */
  columns: string[];
  primary: boolean;
  partial: boolean;
}

export interface IndexShape {
  name: string;
  /** Column names in index order. */
  columns: string[];
  unique: boolean;
  partial: boolean;
}

export interface ForeignKeyShape {
  columns: string[];
  references: string;
  referencedColumns: string[];
  onDelete: 'cascade' | 'set null' | 'no action';
  /** For `set null` on PostgreSQL: the columns it nulls (all of `columns` when the key names none). */
  setNull?: string[];
}

export interface TableShape {
  columns: ColumnShape[];
  keys: KeyShape[];
  /** Indexes created by name (`CREATE INDEX`), not the ones behind PRIMARY KEY and UNIQUE constraints. */
  indexes: IndexShape[];
  foreignKeys: ForeignKeyShape[];
}

export type SchemaShape = Map<string, TableShape>;

/** Tables of the migration runner itself, not of the schema. */
const BOOKKEEPING = new Set(['schema_migrations']);

const sorted = (xs: string[]) => [...xs].sort();

function onDelete(action: string): ForeignKeyShape['onDelete'] {
  const a = action.toLowerCase();
  if (a === 'cascade' || a === 'c') return 'cascade';
  if (a === 'set null' || a === 'n') return 'set null';
  if (a === 'no action' || a === 'a') return 'no action';
  throw new Error(`unexpected ON DELETE action ${action}`);
}

interface SqliteColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** The shape of a migrated SQLite control database. */
export function sqliteShape(db: Db): SchemaShape {
  const shape: SchemaShape = new Map();
  const tables = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string; sql: string }[];
  for (const { name: table, sql } of tables) {
    if (BOOKKEEPING.has(table)) continue;
    const info = db.prepare(`PRAGMA table_info(${table})`).all() as SqliteColumn[];
    const columns = info.map((c) => ({
      name: c.name,
      type: c.type.toUpperCase(),
      // A primary key column never holds NULL in this schema (a rowid alias cannot; the other keys are
      // always written), though SQLite's pragma reports only what the column declares.
      notNull: c.notnull === 1 || c.pk > 0,
      default: c.dflt_value,
      nocase: new RegExp(`\\b${c.name}\\s+TEXT\\b[^,]*\\bCOLLATE\\s+NOCASE\\b`, 'i').test(sql),
    }));
    const keys: KeyShape[] = [];
    const indexes: IndexShape[] = [];
    const list = db.prepare(`PRAGMA index_list(${table})`).all() as {
      name: string;
      unique: number;
      origin: string;
      partial: number;
    }[];
    for (const ix of list) {
      const cols = (db.prepare(`PRAGMA index_info(${ix.name})`).all() as { seqno: number; name: string }[])
        .sort((a, b) => a.seqno - b.seqno)
        .map((c) => c.name);
      if (ix.unique === 1) keys.push({ columns: sorted(cols), primary: ix.origin === 'pk', partial: ix.partial === 1 });
      if (ix.origin === 'c')
        indexes.push({ name: ix.name, columns: cols, unique: ix.unique === 1, partial: ix.partial === 1 });
    }
    if (!list.some((ix) => ix.origin === 'pk')) {
      // A rowid table's INTEGER PRIMARY KEY has no index of its own.
      const pk = info.filter((c) => c.pk > 0).map((c) => c.name);
      if (pk.length > 0) keys.push({ columns: sorted(pk), primary: true, partial: false });
    }
    const fkRows = db.prepare(`PRAGMA foreign_key_list(${table})`).all() as {
      id: number;
      seq: number;
      table: string;
      from: string;
      to: string;
      on_delete: string;
    }[];
    const byId = new Map<number, typeof fkRows>();
    for (const r of fkRows) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
    const foreignKeys = [...byId.values()].map((rows) => {
      const ordered = [...rows].sort((a, b) => a.seq - b.seq);
      const first = ordered[0];
      if (!first) throw new Error(`${table}: a foreign key without columns`);
      return {
        columns: ordered.map((r) => r.from),
        references: first.table,
        referencedColumns: ordered.map((r) => r.to),
        onDelete: onDelete(first.on_delete),
      };
    });
    shape.set(table, { columns, keys, indexes, foreignKeys });
  }
  return shape;
}

const PG_TYPES: Record<string, string> = {
  bigint: 'INTEGER',
  'double precision': 'REAL',
  text: 'TEXT',
  bytea: 'BLOB',
};

/** The columns of an index or constraint, in order, as text (node-pg does not parse `name[]`). */
const attnames = (attnums: string, rel: string) =>
  `(SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(${attnums}) WITH ORDINALITY k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = ${rel} AND a.attnum = k.attnum)`;

/** The shape of the `public` schema of a PostgreSQL database the migrations ran on. */
export async function postgresShape(client: pg.Client): Promise<SchemaShape> {
  const shape: SchemaShape = new Map();
  const tables = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  for (const { table_name } of tables.rows) {
    if (BOOKKEEPING.has(table_name)) continue;
    shape.set(table_name, { columns: [], keys: [], indexes: [], foreignKeys: [] });
  }
  const table = (name: string) => {
    const t = shape.get(name);
    if (!t) throw new Error(`no table ${name}`);
    return t;
  };

  const columns = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
    collation_name: string | null;
  }>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name
     FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  for (const c of columns.rows) {
    if (!shape.has(c.table_name)) continue;
    table(c.table_name).columns.push({
      name: c.column_name,
      type: PG_TYPES[c.data_type] ?? c.data_type,
      notNull: c.is_nullable === 'NO',
      default: c.column_default === null ? null : c.column_default.replace(/::[a-z ]+$/, ''),
      nocase: c.collation_name === 'nocase',
    });
  }

  const indexes = await client.query<{
    table: string;
    name: string;
    unique: boolean;
    primary: boolean;
    partial: boolean;
    constraint: boolean;
    columns: string[];
  }>(
    `SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique, ix.indisprimary AS primary,
       ix.indpred IS NOT NULL AS partial,
       EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid AND c.contype IN ('p', 'u')) AS constraint,
       ${attnames('ix.indkey::int2[]', 't.oid')} AS columns
     FROM pg_index ix
     JOIN pg_class t ON t.oid = ix.indrelid
     JOIN pg_class i ON i.oid = ix.indexrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public'`,
  );
  for (const ix of indexes.rows) {
    if (!shape.has(ix.table)) continue;
    const t = table(ix.table);
    if (ix.unique) t.keys.push({ columns: sorted(ix.columns), primary: ix.primary, partial: ix.partial });
    if (!ix.constraint) t.indexes.push({ name: ix.name, columns: ix.columns, unique: ix.unique, partial: ix.partial });
  }

  const fks = await client.query<{
    table: string;
    references: string;
    on_delete: string;
    columns: string[];
    referenced_columns: string[];
    set_null: string[] | null;
  }>(
    `SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS references,
       c.confdeltype AS on_delete,
       ${attnames('c.conkey', 'c.conrelid')} AS columns,
       ${attnames('c.confkey', 'c.confrelid')} AS referenced_columns,
       ${attnames('c.confdelsetcols', 'c.conrelid')} AS set_null
     FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
     WHERE c.contype = 'f' AND n.nspname = 'public'`,
  );
  for (const fk of fks.rows) {
    if (!shape.has(fk.table)) continue;
    const action = onDelete(fk.on_delete);
    table(fk.table).foreignKeys.push({
      columns: fk.columns,
      references: fk.references,
      referencedColumns: fk.referenced_columns,
      onDelete: action,
      ...(action === 'set null' ? { setNull: fk.set_null ?? fk.columns } : {}),
    });
  }
  return shape;
}
