import { userColumnOf } from '../accounts';
import { deleteParentSegmentFolders } from '../folders';
import { jobColumnOf } from '../jobs';
import { notFound } from '../platform/errors';
import { parseId } from '../platform/ids';
import { dialectOf, type Executor, many, one, type Row, sql, transaction } from '../platform/storage';
import { type Definition, readDefinition } from './definition';

/** SQL of parent segments and segments, always scoped by account. Times are Unix milliseconds. */

/** Who made and last changed a row, by name (null once that user is removed), as the views read them. */
interface ByNames {
  created_by_name: string | null;
  updated_by_name: string | null;
}

/**
 * A row of `parent_segments` (platform/storage/controlTables/audiences.ts) as PARENT reads it. `root_folder_id`
 * is set in the transaction that inserts the row, so a read never sees it null; `built_json` is the definition
 * the current profile file was built from, null before the first build; `build_status` the build job's status.
 */
export type ParentSegmentRow = Omit<Row<'parent_segments'>, 'root_folder_id'> & { root_folder_id: number } & ByNames & {
    build_status: string | null;
  };

/** A row of `segments` as SEGMENT reads it. */
export type SegmentRow = Row<'segments'> & ByNames;

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

/** The fields' columns alone (`f` may carry more), the definition as stored. */
const parentColumnsOf = (f: ParentSegmentFields) => ({
  name: f.name,
  description: f.description,
  schedule_type: f.schedule_type,
  schedule_option: f.schedule_option,
  timezone: f.timezone,
  definition_json: JSON.stringify(f.definition),
});

/** Inserts the row without its root folder; the caller sets that in the same transaction. */
export async function insertParentSegment(
  ex: Executor,
  accountId: number,
  userId: number,
  f: ParentSegmentFields,
  now: number,
): Promise<number> {
  const { id } = await ex
    .insertInto('parent_segments')
    .values({
      ...parentColumnsOf(f),
      account_id: accountId,
      created_by: userId,
      updated_by: userId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function setRootFolder(ex: Executor, accountId: number, id: number, folderId: number): Promise<void> {
  await ex
    .updateTable('parent_segments')
    .set({ root_folder_id: folderId })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function updateParentSegment(
  ex: Executor,
  row: ParentSegmentRow,
  userId: number,
  f: ParentSegmentFields,
  now: number,
): Promise<void> {
  await ex
    .updateTable('parent_segments')
    .set({ ...parentColumnsOf(f), updated_by: userId, updated_at: now })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .execute();
}

export function deleteParentSegmentRow(ex: Executor, row: ParentSegmentRow): Promise<void> {
  const { account_id: accountId, id } = row;
  return transaction(ex, async (tx) => {
    await tx.deleteFrom('segments').where('account_id', '=', accountId).where('parent_segment_id', '=', id).execute();
    await deleteParentSegmentFolders(tx, accountId, id);
    await tx.deleteFrom('parent_segments').where('account_id', '=', accountId).where('id', '=', id).execute();
  });
}

export async function setBuildJob(ex: Executor, row: { account_id: number; id: number }, jobId: number): Promise<void> {
  await ex
    .updateTable('parent_segments')
    .set({ build_job_id: jobId })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .execute();
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
  const { numUpdatedRows } = await ex
    .updateTable('parent_segments')
    .set({ population: build.population, matrix_updated_at: build.at, built_json: JSON.stringify(build.definition) })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .where('build_job_id', '=', build.jobId)
    .executeTakeFirst();
  return Number(numUpdatedRows) > 0;
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
  const rows = await many<Pick<SegmentRow, 'id'>>(
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

/** The fields' columns alone (`f` may carry more). */
const segmentColumnsOf = (f: SegmentFields): SegmentFields => ({
  folder_id: f.folder_id,
  name: f.name,
  description: f.description,
  rule_json: f.rule_json,
});

export async function insertSegment(
  ex: Executor,
  parent: ParentSegmentRow,
  userId: number,
  f: SegmentFields,
  now: number,
): Promise<number> {
  const { id } = await ex
    .insertInto('segments')
    .values({
      ...segmentColumnsOf(f),
      account_id: parent.account_id,
      parent_segment_id: parent.id,
      created_by: userId,
      updated_by: userId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateSegment(ex: Executor, row: SegmentRow, userId: number, f: SegmentFields, now: number) {
  await ex
    .updateTable('segments')
    .set({ ...segmentColumnsOf(f), updated_by: userId, updated_at: now })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .execute();
}

export async function deleteSegmentRow(ex: Executor, row: SegmentRow): Promise<void> {
  await ex.deleteFrom('segments').where('account_id', '=', row.account_id).where('id', '=', row.id).execute();
}
