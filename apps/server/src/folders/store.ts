import type { Db } from '../platform/db';
import { conflict } from '../platform/errors';

/**
 * Folders of parent segments: a tree per parent segment whose root is made with the parent segment.
 * Segments and journeys live in folders. Every query is scoped by account. Times are Unix milliseconds.
 */

export interface FolderRow {
  id: number;
  account_id: number;
  parent_segment_id: number;
  /** Null for a parent segment's root folder. */
  parent_id: number | null;
  name: string;
  created_at: number;
  updated_at: number;
}

/** Folders nest at most this deep below a root (the by-folder listing shows up to 32 levels). */
export const MAX_FOLDER_DEPTH = 32;

export function folderRow(db: Db, accountId: number, id: number): FolderRow | null {
  return (
    (db.prepare('SELECT * FROM folders WHERE account_id = ? AND id = ?').get(accountId, id) as FolderRow | undefined) ??
    null
  );
}

/** Ids of the folder's ancestors, root first, not including the folder itself. */
export function ancestorIds(db: Db, accountId: number, id: number): number[] {
  const rows = db
    .prepare(
      `WITH RECURSIVE up(id, parent_id, n) AS (
         SELECT id, parent_id, 0 FROM folders WHERE account_id = ? AND id = ?
         UNION ALL
         SELECT f.id, f.parent_id, up.n + 1 FROM folders f JOIN up ON f.id = up.parent_id
         WHERE f.account_id = ? AND up.n < 64
       )
       SELECT id FROM up WHERE n > 0 ORDER BY n DESC`,
    )
    .all(accountId, id, accountId) as { id: number }[];
  return rows.map((r) => r.id);
}

/** Folders below `id` down to `depth` levels (1 = children), with their level, in level then id order. */
export function descendants(db: Db, accountId: number, id: number, depth: number): (FolderRow & { level: number })[] {
  return db
    .prepare(
      `WITH RECURSIVE down(id, level) AS (
         SELECT id, 0 FROM folders WHERE account_id = ? AND id = ?
         UNION ALL
         SELECT f.id, down.level + 1 FROM folders f JOIN down ON f.parent_id = down.id
         WHERE f.account_id = ? AND down.level < ?
       )
       SELECT folders.*, down.level FROM down JOIN folders ON folders.id = down.id
       WHERE down.level > 0 ORDER BY down.level, folders.id`,
    )
    .all(accountId, id, accountId, depth) as (FolderRow & { level: number })[];
}

function siblingNamed(db: Db, folder: { account_id: number; parent_id: number | null; name: string }, except = 0) {
  return db
    .prepare('SELECT id FROM folders WHERE account_id = ? AND parent_id IS ? AND name = ? AND id <> ?')
    .get(folder.account_id, folder.parent_id, folder.name, except) as { id: number } | undefined;
}

export function insertFolder(
  db: Db,
  folder: { account_id: number; parent_segment_id: number; parent_id: number | null; name: string },
  now: number,
): FolderRow {
  if (folder.parent_id !== null && siblingNamed(db, folder)) {
    throw conflict(`A folder named "${folder.name}" already exists there; choose another name.`);
  }
  const result = db
    .prepare(
      `INSERT INTO folders (account_id, parent_segment_id, parent_id, name, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(folder.account_id, folder.parent_segment_id, folder.parent_id, folder.name, now, now);
  return folderRow(db, folder.account_id, Number(result.lastInsertRowid)) as FolderRow;
}

export function renameFolderRow(db: Db, folder: FolderRow, name: string, now: number): FolderRow {
  if (folder.parent_id !== null && siblingNamed(db, { ...folder, name }, folder.id)) {
    throw conflict(`A folder named "${name}" already exists there; choose another name.`);
  }
  db.prepare('UPDATE folders SET name = ?, updated_at = ? WHERE account_id = ? AND id = ?').run(
    name,
    now,
    folder.account_id,
    folder.id,
  );
  return { ...folder, name, updated_at: now };
}

export function deleteFolderRow(db: Db, folder: FolderRow): void {
  db.prepare('DELETE FROM folders WHERE account_id = ? AND id = ?').run(folder.account_id, folder.id);
}
