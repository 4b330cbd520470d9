import { conflict } from '../platform/errors';
import { type Executor, insertId, many, one, run, sql } from '../platform/storage';

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

export async function folderRow(db: Executor, accountId: number, id: number): Promise<FolderRow | null> {
  return (await one<FolderRow>(db, sql`SELECT * FROM folders WHERE account_id = ${accountId} AND id = ${id}`)) ?? null;
}

/** Ids of the folder's ancestors, root first, not including the folder itself. */
export async function ancestorIds(db: Executor, accountId: number, id: number): Promise<number[]> {
  const rows = await many<{ id: number }>(
    db,
    sql`WITH RECURSIVE up(id, parent_id, n) AS (
          SELECT id, parent_id, 0 FROM folders WHERE account_id = ${accountId} AND id = ${id}
          UNION ALL
          SELECT f.id, f.parent_id, up.n + 1 FROM folders f JOIN up ON f.id = up.parent_id
          WHERE f.account_id = ${accountId} AND up.n < 64
        )
        SELECT id FROM up WHERE n > 0 ORDER BY n DESC`,
  );
  return rows.map((r) => r.id);
}

/** Folders below `id` down to `depth` levels (1 = children), with their level, in level then id order. */
export function descendants(
  db: Executor,
  accountId: number,
  id: number,
  depth: number,
): Promise<(FolderRow & { level: number })[]> {
  return many<FolderRow & { level: number }>(
    db,
    sql`WITH RECURSIVE down(id, level) AS (
          SELECT id, 0 FROM folders WHERE account_id = ${accountId} AND id = ${id}
          UNION ALL
          SELECT f.id, down.level + 1 FROM folders f JOIN down ON f.parent_id = down.id
          WHERE f.account_id = ${accountId} AND down.level < ${depth}
        )
        SELECT folders.*, down.level FROM down JOIN folders ON folders.account_id = ${accountId} AND folders.id = down.id
        WHERE down.level > 0 ORDER BY down.level, folders.id`,
  );
}

async function siblingNamed(
  db: Executor,
  folder: { account_id: number; parent_id: number | null; name: string },
  except = 0,
): Promise<{ id: number } | undefined> {
  const parent = folder.parent_id === null ? sql`parent_id IS NULL` : sql`parent_id = ${folder.parent_id}`;
  return one<{ id: number }>(
    db,
    sql`SELECT id FROM folders
         WHERE account_id = ${folder.account_id} AND ${parent} AND name = ${folder.name} AND id <> ${except}`,
  );
}

export async function insertFolder(
  db: Executor,
  folder: { account_id: number; parent_segment_id: number; parent_id: number | null; name: string },
  now: number,
): Promise<FolderRow> {
  if (folder.parent_id !== null && (await siblingNamed(db, folder))) {
    throw conflict(`A folder named "${folder.name}" already exists there; choose another name.`);
  }
  const id = await insertId(
    db,
    sql`INSERT INTO folders (account_id, parent_segment_id, parent_id, name, created_at, updated_at)
        VALUES (${folder.account_id}, ${folder.parent_segment_id}, ${folder.parent_id}, ${folder.name}, ${now}, ${now})
        RETURNING id`,
  );
  return (await folderRow(db, folder.account_id, id)) as FolderRow;
}

export async function renameFolderRow(db: Executor, folder: FolderRow, name: string, now: number): Promise<FolderRow> {
  if (folder.parent_id !== null && (await siblingNamed(db, { ...folder, name }, folder.id))) {
    throw conflict(`A folder named "${name}" already exists there; choose another name.`);
  }
  await run(
    db,
    sql`UPDATE folders SET name = ${name}, updated_at = ${now} WHERE account_id = ${folder.account_id} AND id = ${folder.id}`,
  );
  return { ...folder, name, updated_at: now };
}

export async function deleteFolderRow(db: Executor, folder: FolderRow): Promise<void> {
  await run(db, sql`DELETE FROM folders WHERE account_id = ${folder.account_id} AND id = ${folder.id}`);
}

/** Removes a parent segment's whole folder tree (its folders are unlinked first, so no parent is left dangling). */
export async function deleteParentSegmentFolders(db: Executor, accountId: number, parentSegmentId: number) {
  await run(
    db,
    sql`UPDATE folders SET parent_id = NULL WHERE account_id = ${accountId} AND parent_segment_id = ${parentSegmentId}`,
  );
  await run(db, sql`DELETE FROM folders WHERE account_id = ${accountId} AND parent_segment_id = ${parentSegmentId}`);
}
