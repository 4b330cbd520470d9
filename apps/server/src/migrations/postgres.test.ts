import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../dwh/testing/postgres';
import { type Db, migrate, openSqlite } from '../platform/db';
import { JOURNEY_ROWS_WITHOUT_KEYS_ON_POSTGRES } from './0050-journey-run-events';
import { migrations } from './index';
import { type ForeignKeyShape, postgresShape, type SchemaShape, sqliteShape } from './testing/schemaShape';

/**
 * The PostgreSQL text of every migration builds the same control database as the SQLite text: the same
 * tables, columns, keys, indexes and ON DELETE rules, with `account_id` added to keys so the tables can be
 * distributed by account (ARCHITECTURE.md, "Distribution (Citus)"). Runs on a fresh database of the tests'
 * PostgreSQL, dropped afterwards.
 */

let server: TestPostgres;
let admin: pg.Client;
let client: pg.Client;
let database: string;
let dir: string;
let sqlite: Db;
let pgShape: SchemaShape;
let liteShape: SchemaShape;

function urlOf(name: string): string {
  const u = new URL(server.url);
  u.pathname = `/${name}`;
  return u.toString();
}

beforeAll(async () => {
  server = startTestPostgres();
  admin = new pg.Client({ connectionString: urlOf('postgres') });
  await admin.connect();
  database = `svc_ddl_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${database}`);
  client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.postgres.trim() === '') continue;
    await client.query('BEGIN');
    try {
      await client.query(m.postgres);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw new Error(`migration ${m.version} (${m.name}) failed on PostgreSQL: ${(err as Error).message}`);
    }
  }
  dir = mkdtempSync(join(tmpdir(), 'svc-ddl-'));
  sqlite = openSqlite(join(dir, 'control.sqlite'));
  migrate(sqlite);
  pgShape = await postgresShape(client);
  liteShape = sqliteShape(sqlite);
  // Starting a PostgreSQL cluster (initdb) and migrating it takes seconds, more on a loaded machine.
}, 120_000);

afterAll(async () => {
  await client?.end();
  if (database) await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin?.end();
  sqlite?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server?.stop();
});

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
const hasAccount = (shape: SchemaShape, table: string) =>
  shape.get(table)?.columns.some((c) => c.name === 'account_id') ?? false;

describe('the PostgreSQL text of the control-database migrations', () => {
  it('builds the same tables with the same columns: order, types, nullability, defaults, case-insensitivity', () => {
    const columns = (s: SchemaShape) => Object.fromEntries([...s].map(([t, shape]) => [t, shape.columns]));
    expect(liteShape.size).toBeGreaterThan(30);
    expect(columns(pgShape)).toEqual(columns(liteShape));
    expect(pgShape.get('users')?.columns.find((c) => c.name === 'email')?.nocase).toBe(true);
  });

  it('has the same primary and unique keys, with at most account_id added', () => {
    const problems: string[] = [];
    for (const [table, lite] of liteShape) {
      const left = [...(pgShape.get(table)?.keys ?? [])];
      for (const k of lite.keys) {
        const widened = [...k.columns, 'account_id'];
        const i = left.findIndex(
          (p) =>
            p.primary === k.primary &&
            p.partial === k.partial &&
            (sameSet(p.columns, k.columns) ||
              (hasAccount(liteShape, table) && !k.columns.includes('account_id') && sameSet(p.columns, widened))),
        );
        if (i < 0) problems.push(`${table}: no key for (${k.columns.join(', ')}) on PostgreSQL`);
        else left.splice(i, 1);
      }
      for (const p of left) problems.push(`${table}: extra key (${p.columns.join(', ')}) on PostgreSQL`);
    }
    expect(problems).toEqual([]);
  });

  it('has every named index of SQLite, and adds only single-column lookup indexes named <table>_<column>', () => {
    const problems: string[] = [];
    for (const [table, lite] of liteShape) {
      const onPg = pgShape.get(table)?.indexes ?? [];
      for (const ix of lite.indexes) {
        const same = onPg.find((p) => p.name === ix.name);
        if (!same) problems.push(`${table}: index ${ix.name} missing`);
        else expect(same, ix.name).toEqual(ix);
      }
      for (const p of onPg) {
        if (lite.indexes.some((ix) => ix.name === p.name)) continue;
        if (p.unique || p.partial || p.columns.length !== 1 || p.name !== `${table}_${p.columns[0]}`) {
          problems.push(`${table}: unexpected index ${p.name} (${p.columns.join(', ')})`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Rows found by id alone (API keys, sessions by their hash) have an index for it.
    expect(pgShape.get('api_keys')?.indexes.map((i) => i.name)).toContain('api_keys_id');
    expect(pgShape.get('console_sessions')?.indexes.map((i) => i.name)).toContain('console_sessions_id_hash');
  });

  it('has the same foreign keys and ON DELETE rules, co-located by account_id between account tables', () => {
    const describeFk = (table: string, fk: ForeignKeyShape) =>
      `${table}(${fk.columns.join(', ')}) -> ${fk.references}(${fk.referencedColumns.join(', ')}) on delete ${fk.onDelete}${
        fk.setNull ? ` (${fk.setNull.join(', ')})` : ''
      }`;
    const expected: string[] = [];
    for (const [table, lite] of liteShape) {
      // The journey engine's per-profile rows have none on PostgreSQL (migration 49; a trigger deletes them with
      // their journey, store.test.ts proves it on both backends).
      if (JOURNEY_ROWS_WITHOUT_KEYS_ON_POSTGRES.includes(table)) continue;
      for (const fk of lite.foreignKeys) {
        // Keys to the accounts reference table stay as they are; keys between account tables gain account_id.
        const colocated: ForeignKeyShape =
          fk.references === 'accounts'
            ? fk
            : {
                ...fk,
                columns: ['account_id', ...fk.columns],
                referencedColumns: ['account_id', ...fk.referencedColumns],
              };
        // SET NULL clears only the referencing column, never account_id.
        expected.push(
          describeFk(table, fk.onDelete === 'set null' ? { ...colocated, setNull: fk.columns } : colocated),
        );
      }
    }
    const actual = [...pgShape].flatMap(([table, s]) => s.foreignKeys.map((fk) => describeFk(table, fk)));
    expect(actual.sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(40);

    // No foreign key Citus could not co-locate: each one goes to the reference table or pairs account_id.
    for (const [table, s] of pgShape) {
      for (const fk of s.foreignKeys) {
        const paired = fk.columns[fk.referencedColumns.indexOf('account_id')] === 'account_id';
        expect(fk.references === 'accounts' || paired, describeFk(table, fk)).toBe(true);
      }
    }
  });

  it('leaves account_id out of only the known keys, which Citus needs changed (ARCHITECTURE.md)', () => {
    const without: string[] = [];
    for (const [table, s] of pgShape) {
      if (!hasAccount(pgShape, table)) continue;
      for (const k of s.keys) if (!k.columns.includes('account_id')) without.push(`${table}(${k.columns.join(', ')})`);
    }
    expect(without.sort()).toEqual([
      'bulk_import_parts(name, session_id)',
      'journey_profile_states(journey_id, profile_key)',
      // A domain names one account across all of them: a reference table on Citus (decision 0037).
      'sso_domains(domain)',
    ]);
    const global = [...pgShape.keys()].filter((t) => !hasAccount(pgShape, t)).sort();
    // schedule_slots: the firings of every account's schedules, one claim each (platform/storage/slots.ts).
    // service_settings: facts about the whole service, such as the secret's fingerprint (platform/secretCheck.ts).
    expect(global).toEqual(['accounts', 'login_failures', 'schedule_slots', 'service_settings']);
  });
});

/** The same SQL text, with `?` placeholders, run on either backend. */
interface Backend {
  name: string;
  all(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  isUniqueViolation(err: unknown): boolean;
}

function sqliteBackend(): Backend {
  return {
    name: 'sqlite',
    all: async (sql, params = []) => {
      const stmt = sqlite.prepare(sql);
      if (stmt.reader) return stmt.all(...params) as Record<string, unknown>[];
      stmt.run(...params);
      return [];
    },
    isUniqueViolation: (err) => (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE',
  };
}

function postgresBackend(): Backend {
  return {
    name: 'postgres',
    all: async (sql, params = []) => {
      let n = 0;
      const r = await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
      return r.rows;
    },
    isUniqueViolation: (err) => (err as { code?: string }).code === '23505',
  };
}

async function one(b: Backend, sql: string, params: unknown[] = []): Promise<Record<string, unknown>> {
  const [row, ...more] = await b.all(sql, params);
  if (!row || more.length > 0) throw new Error(`${b.name}: expected one row from ${sql}, got ${more.length + 1}`);
  return row;
}

const count = async (b: Backend, table: string, account: unknown) =>
  Number((await one(b, `SELECT COUNT(*) AS n FROM ${table} WHERE account_id = ?`, [account])).n);

async function newAccount(b: Backend): Promise<unknown> {
  return (await one(b, 'INSERT INTO accounts (name, created_at) VALUES (?, ?) RETURNING id', ['acme', 1])).id;
}

async function newUser(b: Backend, account: unknown, name: string, email: string): Promise<unknown> {
  const sql = `INSERT INTO users (account_id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id`;
  return (await one(b, sql, [account, name, email, 1, 1])).id;
}

describe.each([
  ['SQLite', sqliteBackend],
  ['PostgreSQL', postgresBackend],
])('the control database on %s', (_label, make) => {
  it('refuses two users of one account whose e-mails differ only in case, allows them in two accounts, and finds a user by e-mail in any case', async () => {
    const b = make();
    const account = await newAccount(b);
    const ann = await newUser(b, account, 'ann', 'Ann@Example.com');
    let violation: unknown;
    try {
      await newUser(b, account, 'ann2', 'ann@EXAMPLE.com');
    } catch (err) {
      violation = err;
    }
    expect(violation).toBeDefined();
    expect(b.isUniqueViolation(violation)).toBe(true);
    const found = await one(b, 'SELECT id FROM users WHERE account_id = ? AND email = ?', [account, 'ANN@example.COM']);
    expect(String(found.id)).toBe(String(ann));
    // E-mail addresses are unique per account (migration 24, decision 0028).
    const other = await newAccount(b);
    await newUser(b, other, 'ann', 'ann@EXAMPLE.com');
    expect(await b.all('SELECT id FROM users WHERE email = ?', ['ann@example.com'])).toHaveLength(2);
  });

  it('cascades deletes and nulls user references as SQLite does', async () => {
    const b = make();
    const account = await newAccount(b);
    const gone = await newUser(b, account, 'gone', `gone-${b.name}@example.com`);
    const stays = await newUser(b, account, 'stays', `stays-${b.name}@example.com`);
    for (const user of [gone, stays]) {
      await b.all(
        `INSERT INTO api_keys (account_id, user_id, type, secret_hash, hint, created_at) VALUES (?, ?, 'master', ?, 'h', ?)`,
        [account, user, randomBytes(8), 1],
      );
      await b.all(
        'INSERT INTO console_sessions (id_hash, account_id, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
        [randomBytes(16), account, user, 1, 1],
      );
    }
    await b.all('INSERT INTO login_notices (account_id, user_id, at, address, failures) VALUES (?, ?, ?, ?, ?)', [
      account,
      gone,
      1,
      '10.0.0.1',
      3,
    ]);
    await b.all(
      `INSERT INTO folder_permissions (account_id, folder_id, user_id, permission, granted_at) VALUES (?, '7', ?, 'view', ?)`,
      [account, gone, 1],
    );
    const job = (
      await one(
        b,
        `INSERT INTO jobs (account_id, user_id, type, status, created_at, updated_at) VALUES (?, ?, 'presto', 'queued', ?, ?) RETURNING id`,
        [account, gone, 1, 1],
      )
    ).id;
    const ps = (
      await one(
        b,
        `INSERT INTO parent_segments (account_id, name, definition_json, created_by, updated_by, created_at, updated_at)
         VALUES (?, 'ps', '{}', ?, ?, ?, ?) RETURNING id`,
        [account, gone, stays, 1, 1],
      )
    ).id;
    const folder = async (parent: unknown) =>
      (
        await one(
          b,
          `INSERT INTO folders (account_id, parent_segment_id, parent_id, name, created_at, updated_at)
           VALUES (?, ?, ?, 'f', ?, ?) RETURNING id`,
          [account, ps, parent, 1, 1],
        )
      ).id;
    const root = await folder(null);
    await folder(await folder(root));
    const segmentRoot = await folder(null);
    await b.all(
      `INSERT INTO segments (account_id, parent_segment_id, folder_id, name, rule_json, created_by, created_at, updated_at)
       VALUES (?, ?, ?, 's', '{}', ?, ?, ?)`,
      [account, ps, segmentRoot, gone, 1, 1],
    );
    const db = (
      await one(
        b,
        `INSERT INTO databases (account_id, name, created_at, updated_at) VALUES (?, 'db', ?, ?) RETURNING id`,
        [account, 1, 1],
      )
    ).id;
    await b.all(`INSERT INTO tables (account_id, database_id, name, created_at, updated_at) VALUES (?, ?, 't', ?, ?)`, [
      account,
      db,
      1,
      1,
    ]);
    const journey = (
      await one(
        b,
        `INSERT INTO journeys (account_id, parent_segment_id, folder_id, name, state, document, created_at, updated_at)
         VALUES (?, '1', '1', 'j', 'draft', '{}', ?, ?) RETURNING id`,
        [account, 1, 1],
      )
    ).id;
    const delivery = (
      await one(
        b,
        `INSERT INTO journey_deliveries (account_id, journey_id, activation_id, at, status, profiles)
         VALUES (?, ?, 'a', ?, 'success', 1) RETURNING id`,
        [account, journey, 1],
      )
    ).id;
    await b.all(
      `INSERT INTO journey_delivery_files (delivery_id, account_id, content_type, body) VALUES (?, ?, 'text/csv', 'x')`,
      [delivery, account],
    );
    await b.all(
      `INSERT INTO journey_runs (account_id, journey_id, at, trigger, status) VALUES (?, ?, ?, 'request', 'success')`,
      [account, journey, 1],
    );

    await b.all('DELETE FROM users WHERE id = ? AND account_id = ?', [gone, account]);
    const afterUser = {
      apiKeys: await count(b, 'api_keys', account),
      sessions: await count(b, 'console_sessions', account),
      notices: await count(b, 'login_notices', account),
      permissions: await count(b, 'folder_permissions', account),
      jobUser: (await one(b, 'SELECT user_id FROM jobs WHERE account_id = ? AND id = ?', [account, job])).user_id,
      psBy: await one(b, 'SELECT created_by, updated_by FROM parent_segments WHERE account_id = ? AND id = ?', [
        account,
        ps,
      ]),
      segmentBy: (await one(b, 'SELECT created_by FROM segments WHERE account_id = ?', [account])).created_by,
    };
    expect({ ...afterUser, psBy: { ...afterUser.psBy, updated_by: String(afterUser.psBy.updated_by) } }).toEqual({
      apiKeys: 1,
      sessions: 1,
      notices: 0,
      permissions: 0,
      jobUser: null,
      psBy: { created_by: null, updated_by: String(stays) },
      segmentBy: null,
    });

    await b.all('DELETE FROM folders WHERE id = ? AND account_id = ?', [root, account]);
    expect(await count(b, 'folders', account)).toBe(1);
    await b.all('DELETE FROM parent_segments WHERE id = ? AND account_id = ?', [ps, account]);
    await b.all('DELETE FROM databases WHERE id = ? AND account_id = ?', [db, account]);
    await b.all('DELETE FROM journeys WHERE id = ? AND account_id = ?', [journey, account]);
    const left = {} as Record<string, number>;
    for (const t of ['folders', 'segments', 'tables', 'journey_deliveries', 'journey_delivery_files', 'journey_runs']) {
      left[t] = await count(b, t, account);
    }
    expect(left).toEqual({
      folders: 0,
      segments: 0,
      tables: 0,
      journey_deliveries: 0,
      journey_delivery_files: 0,
      journey_runs: 0,
    });
  });
});
