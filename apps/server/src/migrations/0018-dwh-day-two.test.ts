import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openSqlite } from '../platform/db';
import { migrations } from './index';

describe('migration 18 (warehouse sync, day two) on SQLite', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-m18-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps stored authentications, accepts ssl mode prefer and still refuses unknown modes', () => {
    const db = openSqlite(join(dir, 'control.sqlite'));
    migrate(
      db,
      migrations.filter((m) => m.version < 18),
    );
    db.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES (1, 'a', 0);
      INSERT INTO dwh_authentications (id, account_id, name, host, port, database_name, user_name, ssl_mode,
          secret_enc, created_at, updated_at)
        VALUES (4, 1, 'kept', 'db.example', 5432, 'shop', 'reader', 'require', 'svc-enc:v1:x', 1, 2);
    `);
    expect(migrate(db)).toContain(18);
    expect(db.prepare('SELECT id, name, ssl_mode, secret_enc FROM dwh_authentications').all()).toEqual([
      { id: 4, name: 'kept', ssl_mode: 'require', secret_enc: 'svc-enc:v1:x' },
    ]);
    const insert = db.prepare(
      `INSERT INTO dwh_authentications (account_id, name, host, port, database_name, user_name, ssl_mode, secret_enc,
         created_at, updated_at) VALUES (1, ?, 'h', 5432, 'd', 'u', ?, '', 0, 0)`,
    );
    insert.run('preferred', 'prefer');
    expect(() => insert.run('bogus', 'allow')).toThrow(/CHECK constraint/);
    expect(() => insert.run('kept', 'prefer')).toThrow(/UNIQUE/);
    db.close();
  });
});
