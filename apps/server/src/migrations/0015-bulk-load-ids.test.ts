import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openSqlite } from '../platform/db';
import { migrations } from './index';

describe('migration 15: bulk load session ids are never reused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-migration-'));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the sessions and starts new ids past every id a session or a bulk load job named', () => {
    const db = openSqlite(join(dir, 'control.sqlite'));
    migrate(
      db,
      migrations.filter((m) => m.version < 15),
    );
    db.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES (1, 'a', 0);
      INSERT INTO bulk_loads (id, account_id, name, database_name, table_name, config_json, created_at, updated_at)
        VALUES (5, 1, 'kept', 'db', 't', '{}', 0, 0);
      INSERT INTO jobs (account_id, type, status, params_json, created_at, updated_at)
        VALUES (1, 'bulkload', 'success', '{"bulk_load_id":9}', 0, 0);
    `);
    // Migration 15 alone: later ones are not what this test is about.
    expect(
      migrate(
        db,
        migrations.filter((m) => m.version <= 15),
      ),
    ).toEqual([15]);
    expect(db.prepare('SELECT id, name FROM bulk_loads').all()).toEqual([{ id: 5, name: 'kept' }]);
    const insert = db.prepare(
      `INSERT INTO bulk_loads (account_id, name, database_name, table_name, config_json, created_at, updated_at)
       VALUES (1, 'new', 'db', 't', '{}', 0, 0)`,
    );
    const first = Number(insert.run().lastInsertRowid);
    expect(first).toBe(10);
    db.prepare('DELETE FROM bulk_loads WHERE id = ?').run(first);
    expect(Number(insert.run().lastInsertRowid)).toBe(11);
    db.close();
  });
});
