import { conflict } from '../platform/errors';
import { type Executor, many, type Row, sql } from '../platform/storage';

/**
 * Folders of parent segments: a tree per parent segment whose root is made with the parent segment.
 * Segments and journeys live in folders. Every query is scoped by account. Times are Unix milliseconds.
 */

/** A row of `folders` (platform/storage/controlTables/folders.ts); `parent_id` is null for a root folder. */
export type FolderRow = Row<'folders'>;

/** Folders nest at most this deep below a root (the by-folder listing shows up to 32 levels). */
export const MAX_FOLDER_DEPTH = 32;

export async function folderRow(db: Executor, accountId: number, id: number): Promise<FolderRow | null> {
  const row = await db
    .selectFrom('folders')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** Ids of the folder's ancestors, root first, not including the folder itself. */
export async function ancestorIds(db: Executor, accountId: number, id: number): Promise<number[]> {
  const rows = await many<Pick<FolderRow, 'id'>>(
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
  return db
    .selectFrom('folders')
    .select('id')
    .where('account_id', '=', folder.account_id)
    .where('parent_id', folder.parent_id === null ? 'is' : '=', folder.parent_id)
    .where('name', '=', folder.name)
    .where('id', '<>', except)
    .executeTakeFirst();
}

export async function insertFolder(
  db: Executor,
  folder: { account_id: number; parent_segment_id: number; parent_id: number | null; name: string },
  now: number,
): Promise<FolderRow> {
  if (folder.parent_id !== null && (await siblingNamed(db, folder))) {
    throw conflict(`A folder named "${folder.name}" already exists there; choose another name.`);
  }
  return db
    .insertInto('folders')
    .values({
      account_id: folder.account_id,
      parent_segment_id: folder.parent_segment_id,
      parent_id: folder.parent_id,
      name: folder.name,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function renameFolderRow(db: Executor, folder: FolderRow, name: string, now: number): Promise<FolderRow> {
  if (folder.parent_id !== null && (await siblingNamed(db, { ...folder, name }, folder.id))) {
    throw conflict(`A folder named "${name}" already exists there; choose another name.`);
  }
  await db
    .updateTable('folders')
    .set({ name, updated_at: now })
    .where('account_id', '=', folder.account_id)
    .where('id', '=', folder.id)
    .execute();
  return { ...folder, name, updated_at: now };
}

export async function deleteFolderRow(db: Executor, folder: FolderRow): Promise<void> {
  await db.deleteFrom('folders').where('account_id', '=', folder.account_id).where('id', '=', folder.id).execute();
}

/** Removes a parent segment's whole folder tree (its folders are unlinked first, so no parent is left dangling). */
export async function deleteParentSegmentFolders(db: Executor, accountId: number, parentSegmentId: number) {
  await db
    .updateTable('folders')
    .set({ parent_id: null })
    .where('account_id', '=', accountId)
    .where('parent_segment_id', '=', parentSegmentId)
    .execute();
  await db
    .deleteFrom('folders')
    .where('account_id', '=', accountId)
    .where('parent_segment_id', '=', parentSegmentId)
    .execute();
}
