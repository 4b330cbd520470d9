import type { Db } from '../platform/db';
import { notFound } from '../platform/errors';
import type { Definition } from './definition';

/** SQL of parent segments and segments, always scoped by account. Times are Unix milliseconds. */

export interface ParentSegmentRow {
  id: number;
  account_id: number;
  name: string;
  description: string;
  schedule_type: string;
  schedule_option: string | null;
  timezone: string;
  definition_json: string;
  root_folder_id: number;
  population: number;
  matrix_updated_at: number | null;
  /** The definition the current profile file was built from; null before the first build. */
  built_json: string | null;
  build_job_id: number | null;
  created_by: number | null;
  updated_by: number | null;
  created_at: number;
  updated_at: number;
  created_by_name: string | null;
  updated_by_name: string | null;
  build_status: string | null;
}

export interface SegmentRow {
  id: number;
  account_id: number;
  parent_segment_id: number;
  folder_id: number;
  name: string;
  description: string;
  rule_json: string;
  created_by: number | null;
  updated_by: number | null;
  created_at: number;
  updated_at: number;
  created_by_name: string | null;
  updated_by_name: string | null;
}

const PARENT = `SELECT p.*, cu.name AS created_by_name, uu.name AS updated_by_name, j.status AS build_status
  FROM parent_segments p
  LEFT JOIN users cu ON cu.id = p.created_by
  LEFT JOIN users uu ON uu.id = p.updated_by
  LEFT JOIN jobs j ON j.id = p.build_job_id AND j.account_id = p.account_id`;

const SEGMENT = `SELECT s.*, cu.name AS created_by_name, uu.name AS updated_by_name
  FROM segments s
  LEFT JOIN users cu ON cu.id = s.created_by
  LEFT JOIN users uu ON uu.id = s.updated_by`;

const ID = /^[1-9][0-9]{0,15}$/;

/** A path or body id as a number; anything that is not a positive integer is null (answered as 404). */
export function parseId(raw: string | number | null | undefined): number | null {
  const text = String(raw ?? '');
  return ID.test(text) ? Number(text) : null;
}

export function definitionOf(row: ParentSegmentRow): Definition {
  return JSON.parse(row.definition_json) as Definition;
}

export function builtOf(row: ParentSegmentRow): Definition | null {
  return row.built_json ? (JSON.parse(row.built_json) as Definition) : null;
}

export function parentSegmentRow(db: Db, accountId: number, id: number): ParentSegmentRow | null {
  const row = db.prepare(`${PARENT} WHERE p.account_id = ? AND p.id = ?`).get(accountId, id);
  return (row as ParentSegmentRow | undefined) ?? null;
}

/** The account's parent segment; a malformed, missing or another account's id is the spec's 404. */
export function requireParentSegment(db: Db, accountId: number, raw: string | number): ParentSegmentRow {
  const id = parseId(raw);
  const row = id === null ? null : parentSegmentRow(db, accountId, id);
  if (!row) throw notFound('parent segment');
  return row;
}

export function listParentSegments(db: Db, accountId: number): ParentSegmentRow[] {
  return db.prepare(`${PARENT} WHERE p.account_id = ? ORDER BY p.id`).all(accountId) as ParentSegmentRow[];
}

export interface ParentSegmentFields {
  name: string;
  description: string;
  schedule_type: string;
  schedule_option: string | null;
  timezone: string;
  definition: Definition;
}

/** Inserts the row without its root folder; the caller sets that in the same transaction. */
export function insertParentSegment(db: Db, accountId: number, userId: number, f: ParentSegmentFields, now: number) {
  const result = db
    .prepare(
      `INSERT INTO parent_segments (account_id, name, description, schedule_type, schedule_option, timezone,
         definition_json, created_by, updated_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      accountId,
      f.name,
      f.description,
      f.schedule_type,
      f.schedule_option,
      f.timezone,
      JSON.stringify(f.definition),
      userId,
      userId,
      now,
      now,
    );
  return Number(result.lastInsertRowid);
}

export function setRootFolder(db: Db, accountId: number, id: number, folderId: number): void {
  db.prepare('UPDATE parent_segments SET root_folder_id = ? WHERE account_id = ? AND id = ?').run(
    folderId,
    accountId,
    id,
  );
}

export function updateParentSegment(
  db: Db,
  row: ParentSegmentRow,
  userId: number,
  f: ParentSegmentFields,
  now: number,
) {
  db.prepare(
    `UPDATE parent_segments SET name = ?, description = ?, schedule_type = ?, schedule_option = ?, timezone = ?,
       definition_json = ?, updated_by = ?, updated_at = ?
     WHERE account_id = ? AND id = ?`,
  ).run(
    f.name,
    f.description,
    f.schedule_type,
    f.schedule_option,
    f.timezone,
    JSON.stringify(f.definition),
    userId,
    now,
    row.account_id,
    row.id,
  );
}

export function deleteParentSegmentRow(db: Db, row: ParentSegmentRow): void {
  db.transaction(() => {
    db.prepare('DELETE FROM segments WHERE account_id = ? AND parent_segment_id = ?').run(row.account_id, row.id);
    db.prepare('UPDATE folders SET parent_id = NULL WHERE account_id = ? AND parent_segment_id = ?').run(
      row.account_id,
      row.id,
    );
    db.prepare('DELETE FROM folders WHERE account_id = ? AND parent_segment_id = ?').run(row.account_id, row.id);
    db.prepare('DELETE FROM parent_segments WHERE account_id = ? AND id = ?').run(row.account_id, row.id);
  })();
}

export function setBuildJob(db: Db, row: { account_id: number; id: number }, jobId: number): void {
  db.prepare('UPDATE parent_segments SET build_job_id = ? WHERE account_id = ? AND id = ?').run(
    jobId,
    row.account_id,
    row.id,
  );
}

/** Publishes a finished build: its population, time and the definition it was built from. */
export function publishBuild(
  db: Db,
  row: { account_id: number; id: number },
  build: { population: number; at: number; definition: Definition },
): void {
  db.prepare(
    'UPDATE parent_segments SET population = ?, matrix_updated_at = ?, built_json = ? WHERE account_id = ? AND id = ?',
  ).run(build.population, build.at, JSON.stringify(build.definition), row.account_id, row.id);
}

// ---- segments ----

export function segmentRow(db: Db, accountId: number, parentSegmentId: number, id: number): SegmentRow | null {
  const row = db
    .prepare(`${SEGMENT} WHERE s.account_id = ? AND s.parent_segment_id = ? AND s.id = ?`)
    .get(accountId, parentSegmentId, id);
  return (row as SegmentRow | undefined) ?? null;
}

export function requireSegment(db: Db, parent: ParentSegmentRow, raw: string | number): SegmentRow {
  const id = parseId(raw);
  const row = id === null ? null : segmentRow(db, parent.account_id, parent.id, id);
  if (!row) throw notFound('segment');
  return row;
}

export function listSegments(db: Db, accountId: number, parentSegmentId: number): SegmentRow[] {
  return db
    .prepare(`${SEGMENT} WHERE s.account_id = ? AND s.parent_segment_id = ? ORDER BY s.id`)
    .all(accountId, parentSegmentId) as SegmentRow[];
}

export function segmentsInFolders(db: Db, accountId: number, folderIds: number[]): SegmentRow[] {
  return db
    .prepare(`${SEGMENT} WHERE s.account_id = ? AND s.folder_id IN (SELECT value FROM json_each(?)) ORDER BY s.id`)
    .all(accountId, JSON.stringify(folderIds)) as SegmentRow[];
}

export interface SegmentFields {
  name: string;
  description: string;
  folder_id: number;
  rule_json: string;
}

export function insertSegment(db: Db, parent: ParentSegmentRow, userId: number, f: SegmentFields, now: number): number {
  const result = db
    .prepare(
      `INSERT INTO segments (account_id, parent_segment_id, folder_id, name, description, rule_json, created_by,
         updated_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(parent.account_id, parent.id, f.folder_id, f.name, f.description, f.rule_json, userId, userId, now, now);
  return Number(result.lastInsertRowid);
}

export function updateSegment(db: Db, row: SegmentRow, userId: number, f: SegmentFields, now: number): void {
  db.prepare(
    `UPDATE segments SET folder_id = ?, name = ?, description = ?, rule_json = ?, updated_by = ?, updated_at = ?
     WHERE account_id = ? AND id = ?`,
  ).run(f.folder_id, f.name, f.description, f.rule_json, userId, now, row.account_id, row.id);
}

export function deleteSegmentRow(db: Db, row: SegmentRow): void {
  db.prepare('DELETE FROM segments WHERE account_id = ? AND id = ?').run(row.account_id, row.id);
}
