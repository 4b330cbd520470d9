import { userColumnOf } from '../accounts';
import { deleteParentSegmentFolders } from '../folders';
import { jobColumnOf } from '../jobs';
import { notFound } from '../platform/errors';
import { parseId } from '../platform/ids';
import { dialectOf, type Executor, insertId, many, one, run, sql, transaction } from '../platform/storage';
import { type Definition, readDefinition } from './definition';

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

const PARENT = sql`SELECT p.*, ${userColumnOf('name', 'p.created_by')} AS created_by_name,
    ${userColumnOf('name', 'p.updated_by')} AS updated_by_name,
    ${jobColumnOf('status', 'p.build_job_id', 'p.account_id')} AS build_status
  FROM parent_segments p`;

const SEGMENT = sql`SELECT s.*, ${userColumnOf('name', 's.created_by')} AS created_by_name,
    ${userColumnOf('name', 's.updated_by')} AS updated_by_name
  FROM segments s`;

/** A path or body id as a number; anything that is not a positive integer is null (answered as 404). */

export function definitionOf(row: ParentSegmentRow): Definition {
  return readDefinition(row.definition_json, 'definition_json');
}

export function builtOf(row: ParentSegmentRow): Definition | null {
  return row.built_json ? readDefinition(row.built_json, 'built_json') : null;
}

export async function parentSegmentRow(ex: Executor, accountId: number, id: number): Promise<ParentSegmentRow | null> {
  return (await one<ParentSegmentRow>(ex, sql`${PARENT} WHERE p.account_id = ${accountId} AND p.id = ${id}`)) ?? null;
}

/** The account's parent segment; a malformed, missing or another account's id is the spec's 404. */
export async function requireParentSegment(
  ex: Executor,
  accountId: number,
  raw: string | number,
): Promise<ParentSegmentRow> {
  const id = parseId(raw);
  const row = id === null ? null : await parentSegmentRow(ex, accountId, id);
  if (!row) throw notFound('parent segment');
  return row;
}

export function listParentSegments(ex: Executor, accountId: number): Promise<ParentSegmentRow[]> {
  return many<ParentSegmentRow>(ex, sql`${PARENT} WHERE p.account_id = ${accountId} ORDER BY p.id`);
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
export function insertParentSegment(
  ex: Executor,
  accountId: number,
  userId: number,
  f: ParentSegmentFields,
  now: number,
): Promise<number> {
  return insertId(
    ex,
    sql`INSERT INTO parent_segments (account_id, name, description, schedule_type, schedule_option, timezone,
          definition_json, created_by, updated_by, created_at, updated_at)
        VALUES (${accountId}, ${f.name}, ${f.description}, ${f.schedule_type}, ${f.schedule_option}, ${f.timezone},
          ${JSON.stringify(f.definition)}, ${userId}, ${userId}, ${now}, ${now})
        RETURNING id`,
  );
}

export async function setRootFolder(ex: Executor, accountId: number, id: number, folderId: number): Promise<void> {
  await run(
    ex,
    sql`UPDATE parent_segments SET root_folder_id = ${folderId} WHERE account_id = ${accountId} AND id = ${id}`,
  );
}

export async function updateParentSegment(
  ex: Executor,
  row: ParentSegmentRow,
  userId: number,
  f: ParentSegmentFields,
  now: number,
): Promise<void> {
  await run(
    ex,
    sql`UPDATE parent_segments SET name = ${f.name}, description = ${f.description}, schedule_type = ${f.schedule_type},
          schedule_option = ${f.schedule_option}, timezone = ${f.timezone},
          definition_json = ${JSON.stringify(f.definition)}, updated_by = ${userId}, updated_at = ${now}
        WHERE account_id = ${row.account_id} AND id = ${row.id}`,
  );
}

export function deleteParentSegmentRow(ex: Executor, row: ParentSegmentRow): Promise<void> {
  const { account_id: accountId, id } = row;
  return transaction(ex, async (tx) => {
    await run(tx, sql`DELETE FROM segments WHERE account_id = ${accountId} AND parent_segment_id = ${id}`);
    await deleteParentSegmentFolders(tx, accountId, id);
    await run(tx, sql`DELETE FROM parent_segments WHERE account_id = ${accountId} AND id = ${id}`);
  });
}

export async function setBuildJob(ex: Executor, row: { account_id: number; id: number }, jobId: number): Promise<void> {
  await run(
    ex,
    sql`UPDATE parent_segments SET build_job_id = ${jobId} WHERE account_id = ${row.account_id} AND id = ${row.id}`,
  );
}

/**
 * Publishes a finished build (its population, time and the definition it was built from), only while the
 * parent segment still waits for that build job; false when a newer build started or it was deleted. One
 * conditional UPDATE: a SQLite worker's transaction must write first, never read then write.
 */
export async function publishBuild(
  ex: Executor,
  row: { account_id: number; id: number },
  build: { jobId: number; population: number; at: number; definition: Definition },
): Promise<boolean> {
  const changed = await run(
    ex,
    sql`UPDATE parent_segments SET population = ${build.population}, matrix_updated_at = ${build.at},
          built_json = ${JSON.stringify(build.definition)}
        WHERE account_id = ${row.account_id} AND id = ${row.id} AND build_job_id = ${build.jobId}`,
  );
  return changed > 0;
}

// ---- segments ----

export async function segmentRow(
  ex: Executor,
  accountId: number,
  parentSegmentId: number,
  id: number,
): Promise<SegmentRow | null> {
  const row = await one<SegmentRow>(
    ex,
    sql`${SEGMENT} WHERE s.account_id = ${accountId} AND s.parent_segment_id = ${parentSegmentId} AND s.id = ${id}`,
  );
  return row ?? null;
}

/** Which of `ids` are segments of the parent segment, in one query whatever their number. */
export async function existingSegmentIds(
  ex: Executor,
  accountId: number,
  parentSegmentId: number,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await many<{ id: number }>(
    ex,
    sql`SELECT id FROM segments WHERE account_id = ${accountId} AND parent_segment_id = ${parentSegmentId}
          AND id IN (${dialectOf(ex).listValues(ids, 'bigint')})`,
  );
  return new Set(rows.map((r) => Number(r.id)));
}

export async function requireSegment(
  ex: Executor,
  parent: ParentSegmentRow,
  raw: string | number,
): Promise<SegmentRow> {
  const id = parseId(raw);
  const row = id === null ? null : await segmentRow(ex, parent.account_id, parent.id, id);
  if (!row) throw notFound('segment');
  return row;
}

export function listSegments(ex: Executor, accountId: number, parentSegmentId: number): Promise<SegmentRow[]> {
  return many<SegmentRow>(
    ex,
    sql`${SEGMENT} WHERE s.account_id = ${accountId} AND s.parent_segment_id = ${parentSegmentId} ORDER BY s.id`,
  );
}

export function segmentsInFolders(ex: Executor, accountId: number, folderIds: number[]): Promise<SegmentRow[]> {
  if (folderIds.length === 0) return Promise.resolve([]);
  return many<SegmentRow>(
    ex,
    sql`${SEGMENT} WHERE s.account_id = ${accountId} AND s.folder_id IN (${dialectOf(ex).listValues(folderIds, 'bigint')}) ORDER BY s.id`,
  );
}

export interface SegmentFields {
  name: string;
  description: string;
  folder_id: number;
  rule_json: string;
}

export function insertSegment(
  ex: Executor,
  parent: ParentSegmentRow,
  userId: number,
  f: SegmentFields,
  now: number,
): Promise<number> {
  return insertId(
    ex,
    sql`INSERT INTO segments (account_id, parent_segment_id, folder_id, name, description, rule_json, created_by,
          updated_by, created_at, updated_at)
        VALUES (${parent.account_id}, ${parent.id}, ${f.folder_id}, ${f.name}, ${f.description}, ${f.rule_json},
          ${userId}, ${userId}, ${now}, ${now})
        RETURNING id`,
  );
}

export async function updateSegment(ex: Executor, row: SegmentRow, userId: number, f: SegmentFields, now: number) {
  await run(
    ex,
    sql`UPDATE segments SET folder_id = ${f.folder_id}, name = ${f.name}, description = ${f.description},
          rule_json = ${f.rule_json}, updated_by = ${userId}, updated_at = ${now}
        WHERE account_id = ${row.account_id} AND id = ${row.id}`,
  );
}

export async function deleteSegmentRow(ex: Executor, row: SegmentRow): Promise<void> {
  await run(ex, sql`DELETE FROM segments WHERE account_id = ${row.account_id} AND id = ${row.id}`);
}
