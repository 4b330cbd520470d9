import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, migrate, openSqlite } from '../../platform/db';
import { migrations } from '../index';

/**
 * A control database in a fresh SQLite file, migrated up to (not including) `version`: the state a server
 * upgrading to that migration starts from. `remove` closes it and deletes its folder.
 */
export function sqliteBefore(version: number): { db: Db; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `svc-m${version}-`));
  const db = openSqlite(join(dir, 'control.sqlite'));
  migrate(
    db,
    migrations.filter((m) => m.version < version),
  );
  return {
    db,
    remove: () => {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
