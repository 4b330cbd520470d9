import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres } from '../../dwh/testing/postgres';
import { postgresShape, type SchemaShape, sqliteShape } from '../../migrations/testing/schemaShape';
import { freshTestDatabase } from '../../testing/storage';
import { migrate, openSqlite } from '../db';
import { controlTables } from './controlTables/index';

/**
 * The typed description of the control tables (controlTables/) is current: a SQLite file and a PostgreSQL
 * database, each migrated by the real migrations, hold exactly its tables and columns, with the kinds it says.
 */

const server = startTestPostgres();
process.env.SVC_TEST_PG_URL ??= server.url;

let dir: string;
let lite: Map<string, Record<string, string>>;
let postgres: Map<string, Record<string, string>>;
let drop: () => Promise<void> = async () => {};

/**
 * SQLite fills a table's one INTEGER PRIMARY KEY column (its rowid) when an INSERT leaves it out, whether
 * or not PostgreSQL does (an identity there, or a key every INSERT gives): either kind fits it on SQLite.
 */
const ROWID = 'integer (rowid)';
const fits = (described: string | undefined, kind: string) =>
  described === kind || (kind === ROWID && (described === 'integer' || described === 'integer default'));

/** Each table's columns and their kinds, in the description's words (controlTables/kinds.ts), in order. */
function kindsOf(shape: SchemaShape, generated: (table: string, column: string) => boolean | 'rowid') {
  const kinds = new Map<string, Record<string, string>>();
  for (const [table, { columns }] of shape) {
    const entries = columns.map((c): [string, string] => {
      const base = { INTEGER: 'integer', TEXT: 'text', BLOB: 'blob' }[c.type] ?? `(no kind for ${c.type})`;
      if (!c.notNull) return [c.name, `${base} null`];
      if (c.default !== null) return [c.name, `${base} default`];
      const filled = generated(table, c.name);
      return [c.name, filled === 'rowid' ? ROWID : filled ? `${base} default` : base];
    });
    kinds.set(table, Object.fromEntries(entries));
  }
  return kinds;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-control-tables-'));
  const db = openSqlite(join(dir, 'control.sqlite'));
  try {
    migrate(db);
    const shape = sqliteShape(db);
    const rowid = (table: string, column: string) => {
      const key = shape.get(table)?.keys.find((k) => k.primary)?.columns ?? [];
      const type = shape.get(table)?.columns.find((c) => c.name === column)?.type;
      return key.length === 1 && key[0] === column && type === 'INTEGER' ? 'rowid' : false;
    };
    lite = kindsOf(shape, rowid);
  } finally {
    db.close();
  }

  const database = await freshTestDatabase();
  drop = database.drop;
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const identities = await client.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = 'public' AND is_identity = 'YES'`,
    );
    const identity = new Set(identities.rows.map((r) => `${r.table_name}.${r.column_name}`));
    postgres = kindsOf(await postgresShape(client), (table, column) => identity.has(`${table}.${column}`));
  } finally {
    await client.end();
  }
  // Starting a PostgreSQL cluster (initdb) and migrating a template takes seconds, more on a loaded machine.
}, 120_000);

afterAll(async () => {
  await drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server.stop();
});

const described = new Map<string, Record<string, string>>(Object.entries(controlTables));

/** What differs between a migrated schema and the description, as lines naming the table and column. */
function differences(schema: Map<string, Record<string, string>>): string[] {
  const lines: string[] = [];
  for (const [table, columns] of schema) {
    const mine = described.get(table);
    if (!mine) {
      lines.push(`table ${table} is not described: add it with ${JSON.stringify(columns)}`);
      continue;
    }
    for (const [column, kind] of Object.entries(columns)) {
      if (!(column in mine)) lines.push(`${table}.${column} is not described: add it as '${kind}'`);
      else if (!fits(mine[column], kind)) lines.push(`${table}.${column} is '${kind}', described as '${mine[column]}'`);
    }
    for (const column of Object.keys(mine)) {
      if (!(column in columns)) lines.push(`${table}.${column} is described but the migrations make no such column`);
    }
  }
  for (const table of described.keys()) {
    if (!schema.has(table)) lines.push(`table ${table} is described but the migrations make no such table`);
  }
  return lines;
}

describe('the description of the control tables', () => {
  it('has every table and column a migrated SQLite file holds, with its kind, and nothing more', () => {
    expect(lite.size).toBeGreaterThan(40);
    expect(differences(lite)).toEqual([]);
  });

  it('has every table and column a migrated PostgreSQL database holds, with its kind, and nothing more', () => {
    expect(postgres.size).toBe(lite.size);
    expect(differences(postgres)).toEqual([]);
  });

  it('lists the columns in the order the migrations make them', () => {
    for (const [table, columns] of lite)
      expect(Object.keys(described.get(table) ?? {}), table).toEqual(Object.keys(columns));
  });

  it('finds a column the migrations add but the description lacks, and one it describes wrongly', () => {
    const schema = new Map([...lite].map(([t, c]) => [t, { ...c }]));
    schema.set('users', { ...schema.get('users'), nickname: 'text null', email: 'text null' });
    expect(differences(schema)).toEqual([
      "users.email is 'text null', described as 'text'",
      "users.nickname is not described: add it as 'text null'",
    ]);
  });
});
