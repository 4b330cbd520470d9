import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../platform/db';
import { sqliteBefore } from './testing/sqliteBefore';

describe('migration 24 (e-mail addresses unique per account) on SQLite', () => {
  let remove = () => {};
  afterEach(() => remove());

  it('rebuilds users keeping every row and what refers to them, then allows an address in two accounts', () => {
    const before = sqliteBefore(24);
    remove = before.remove;
    const { db } = before;
    db.exec(`
      INSERT INTO accounts (id, name, created_at) VALUES (1, 'a', 0), (2, 'b', 0);
      INSERT INTO users (id, account_id, name, email, administrator, created_at, updated_at, sso_mode, sso_identifier)
        VALUES (7, 1, 'ann', 'Ann@Example.com', 1, 1, 2, 'enabled', 'ann-idp');
      INSERT INTO api_keys (account_id, user_id, type, secret_hash, hint, created_at, name)
        VALUES (1, 7, 'master', x'00', 'h', 1, 'kept');
      INSERT INTO console_sessions (id_hash, account_id, user_id, created_at, last_seen_at, administrator)
        VALUES (x'01', 1, 7, 1, 1, 1);
    `);
    // Migration 24 runs first, then the later ones.
    expect(migrate(db)[0]).toBe(24);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.prepare('SELECT id, email, sso_mode, sso_identifier FROM users').all()).toEqual([
      { id: 7, email: 'Ann@Example.com', sso_mode: 'enabled', sso_identifier: 'ann-idp' },
    ]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE user_id = 7').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM console_sessions WHERE user_id = 7').get()).toEqual({ n: 1 });

    const insert = db.prepare(
      `INSERT INTO users (account_id, name, email, created_at, updated_at) VALUES (?, ?, ?, 1, 1)`,
    );
    insert.run(2, 'ann', 'ann@example.COM');
    expect(() => insert.run(1, 'ann2', 'ANN@example.com')).toThrow(/UNIQUE/);
    // Foreign keys still hold (and still cascade) on the rebuilt table.
    expect(() =>
      db.exec(
        `INSERT INTO api_keys (account_id, user_id, type, secret_hash, hint, created_at) VALUES (1, 99, 'master', x'00', 'h', 1)`,
      ),
    ).toThrow(/FOREIGN KEY/);
    db.exec('DELETE FROM users WHERE id = 7');
    expect(db.prepare('SELECT COUNT(*) AS n FROM api_keys').get()).toEqual({ n: 0 });
    db.close();
  });
});
