import { type parentSegmentInput, type SegmentRule, segmentInput } from '@svc/contracts';
import { z } from 'zod';
import { deleteGrantsOn } from '../folder-permissions';
import {
  descendants,
  entriesIn,
  type FolderRow,
  folderRow,
  insertFolder,
  renameFolderRow,
  requireFolderControl,
} from '../folders';
import type { JobRunner } from '../jobs';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { ApiError, badRequest, conflict } from '../platform/errors';
import { parseId } from '../platform/ids';
import { isTimedSchedule } from '../platform/schedule';
import { transaction } from '../platform/storage';
import { canonicalTimeZone } from '../platform/timeZone';
import { startBuild } from './buildJob';
import { buildDefinition, type Definition } from './definition';
import { ruleContext } from './evaluate';
import { removeProfiles } from './matrix';
import { compileRule } from './rules/compile';
import { parseRule, readRule } from './rules/parse';
import * as store from './store';
import { segmentUsers } from './usage';

/** Parent segment and segment operations behind the routes; every one is scoped by the caller's account. */

type ParentInput = z.output<typeof parentSegmentInput>;
/** A segment body; the rule is read by parseRule for messages that name unknown operators. */
export const segmentBody = segmentInput.extend({ rule: z.unknown() });
type SegmentInputOut = z.output<typeof segmentBody>;

/** Names and descriptions are stored as text, which on PostgreSQL cannot hold the NUL character. */
function checkText(values: Record<string, string | null | undefined>): void {
  for (const [field, value] of Object.entries(values)) {
    if (value?.includes('\u0000')) {
      throw badRequest(`"${field}" contains the NUL character (\\u0000), which text cannot hold; remove it.`);
    }
  }
}

function fields(
  input: ParentInput,
  definition: Definition,
  before?: store.ParentSegmentRow,
): store.ParentSegmentFields {
  checkText({ name: input.name, description: input.description });
  const schedule = {
    schedule_type: input.scheduleType ?? before?.schedule_type ?? 'none',
    schedule_option: input.scheduleOption === undefined ? (before?.schedule_option ?? null) : input.scheduleOption,
    timezone: input.timezone ?? before?.timezone ?? 'UTC',
  };
  checkSchedule(schedule.schedule_type, schedule.schedule_option, schedule.timezone);
  return { name: input.name, description: input.description ?? '', ...schedule, definition };
}

/** A timed rebuild schedule (schedule.ts) needs an `HH:MM` option and a time zone the server knows. */
function checkSchedule(type: string, option: string | null, timezone: string): void {
  if (canonicalTimeZone(timezone) === null) {
    throw badRequest(`"timezone" is "${timezone}", which is not a known IANA time zone (for example "Asia/Tokyo").`);
  }
  if (!isTimedSchedule(type)) return;
  const m = /^(\d{2}):(\d{2})$/.exec(option ?? '');
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) {
    throw badRequest(
      `A ${type} schedule needs "scheduleOption" as HH:MM (for example "06:30"${type === 'hourly' ? '; only the minutes count' : ''}), not ${JSON.stringify(option)}.`,
    );
  }
}

/** What the profile file depends on: sources and joins, not names or types. */
function sources(def: Definition): string {
  return JSON.stringify({
    master: def.master,
    attributes: def.attributes.map((a) => [a.id, a.database, a.table, a.column, a.parentKey, a.foreignKey]),
    behaviors: def.behaviors.map((b) => [
      b.id,
      b.database,
      b.table,
      b.parentKey,
      b.foreignKey,
      b.columns.map((c) => c.column),
    ]),
  });
}

export async function createParentSegment(deps: AppDeps, jobs: JobRunner, p: Principal, input: ParentInput) {
  const definition = await buildDefinition(deps.storage.db, p.accountId, input, null);
  const now = deps.clock.now().getTime();
  const id = await transaction(deps.storage, async (tx) => {
    const newId = await store.insertParentSegment(tx, p.accountId, p.userId, fields(input, definition), now);
    const root = await insertFolder(
      tx,
      { account_id: p.accountId, parent_segment_id: newId, parent_id: null, name: input.name },
      now,
    );
    await store.setRootFolder(tx, p.accountId, newId, root.id);
    return newId;
  });
  await startBuild(deps, jobs, await currentRow(deps, p.accountId, id), p.userId);
  return currentRow(deps, p.accountId, id);
}

/**
 * 403 unless the caller has Full Control on the parent segment's root folder: changing, rebuilding or
 * deleting the parent segment is a write in it, like the writes of its segments and folders.
 */
async function requireParentControl(
  deps: AppDeps,
  p: Principal,
  row: store.ParentSegmentRow,
  action: string,
): Promise<void> {
  const root = await folderRow(deps.storage.db, row.account_id, row.root_folder_id);
  if (root) await requireFolderControl(deps.storage.db, p, root, action);
}

/** PUT: the whole record; read-only fields are ignored. A change of sources or joins queues a rebuild. */
export async function updateParentSegment(
  deps: AppDeps,
  jobs: JobRunner,
  p: Principal,
  row: store.ParentSegmentRow,
  input: ParentInput,
) {
  await requireParentControl(deps, p, row, 'change this parent segment');
  const before = store.definitionOf(row);
  const definition = await buildDefinition(deps.storage.db, p.accountId, input, before);
  await checkSegmentsStillValid(deps, { ...row, definition_json: JSON.stringify(definition) });
  const now = deps.clock.now().getTime();
  await transaction(deps.storage, async (tx) => {
    await store.updateParentSegment(tx, row, p.userId, fields(input, definition, row), now);
    const root = await folderRow(tx, row.account_id, row.root_folder_id);
    if (root && root.name !== input.name) await renameFolderRow(tx, root, input.name, now);
  });
  const updated = await currentRow(deps, row.account_id, row.id);
  if (sources(definition) !== sources(before)) await startBuild(deps, jobs, updated, p.userId);
  return currentRow(deps, row.account_id, row.id);
}

/** The row as it is now (it exists: the caller just wrote it). */
async function currentRow(deps: AppDeps, accountId: number, id: number): Promise<store.ParentSegmentRow> {
  return (await store.parentSegmentRow(deps.storage.db, accountId, id)) as store.ParentSegmentRow;
}

/** Queues a build, or answers the one already queued or running. */
export async function runBuild(deps: AppDeps, jobs: JobRunner, p: Principal, row: store.ParentSegmentRow) {
  await requireParentControl(deps, p, row, 'rebuild this parent segment');
  if (row.build_status !== 'queued' && row.build_status !== 'running') await startBuild(deps, jobs, row, p.userId);
  return currentRow(deps, row.account_id, row.id);
}

/** Refused while journeys (or other registered entries besides segments) live in its folders. */
export async function deleteParentSegment(
  deps: AppDeps,
  jobs: JobRunner,
  p: Principal,
  row: store.ParentSegmentRow,
): Promise<void> {
  await requireParentControl(deps, p, row, 'delete this parent segment');
  const folders = [
    row.root_folder_id,
    ...(await descendants(deps.storage.db, row.account_id, row.root_folder_id, 64)).map((f) => f.id),
  ];
  const others = (await entriesIn(deps, row.account_id, folders)).filter((e) => e.type !== 'segment');
  if (others.length > 0) {
    const names = others.slice(0, 5).map((e) => `${e.type} ${e.id}`);
    throw conflict(
      `The parent segment still holds ${others.length} other item(s) (${names.join(', ')}); delete them first.`,
    );
  }
  if (row.build_job_id !== null) await jobs.kill(row.account_id, row.build_job_id);
  // Folder ids are reused, so the folders' journey permissions go with them.
  await transaction(deps.storage, async (tx) => {
    await deleteGrantsOn(tx, row.account_id, folders);
    await store.deleteParentSegmentRow(tx, row);
  });
  await removeProfiles(deps, row.account_id, row.id);
}

// ---- segments ----

/** Checks names, types and segment references of a rule against the definition (no data needed). */
async function checkRule(
  deps: AppDeps,
  parent: store.ParentSegmentRow,
  rule: SegmentRule,
  self: number | null,
): Promise<void> {
  const def = store.definitionOf(parent);
  compileRule(rule, await ruleContext(deps, parent, rule, deps.clock.now(), def, self));
}

/** A change that would break a saved segment (a removed attribute, a timestamp typed back) is refused. */
async function checkSegmentsStillValid(deps: AppDeps, parent: store.ParentSegmentRow): Promise<void> {
  for (const s of await store.listSegments(deps.storage.db, parent.account_id, parent.id)) {
    try {
      await checkRule(deps, parent, readRule(s.rule_json), s.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      throw conflict(
        `The segment "${s.name}" (${s.id}) would no longer work: ${err.message} Change that segment first.`,
      );
    }
  }
}

/** The folder named by the request, or `fallback` (the root on create, the current folder on update). */
async function folderFor(
  deps: AppDeps,
  parent: store.ParentSegmentRow,
  raw: string | number | null | undefined,
  fallback: number,
): Promise<FolderRow> {
  const id = raw === undefined || raw === null || raw === '' ? fallback : parseId(raw);
  const folder = id === null ? null : await folderRow(deps.storage.db, parent.account_id, id);
  if (!folder || folder.parent_segment_id !== parent.id) {
    throw badRequest(`The folder "${raw}" is not a folder of this parent segment.`);
  }
  return folder;
}

/** The segment's current folder; one that has gone counts as the root for permissions. */
async function segmentFolder(
  deps: AppDeps,
  parent: store.ParentSegmentRow,
  row: store.SegmentRow,
): Promise<FolderRow | null> {
  return (
    (await folderRow(deps.storage.db, parent.account_id, row.folder_id)) ??
    (await folderRow(deps.storage.db, parent.account_id, parent.root_folder_id))
  );
}

async function segmentFields(
  deps: AppDeps,
  p: Principal,
  parent: store.ParentSegmentRow,
  input: SegmentInputOut,
  self: store.SegmentRow | null,
) {
  const folder = await folderFor(deps, parent, input.folderId, self?.folder_id ?? parent.root_folder_id);
  await requireFolderControl(
    deps.storage.db,
    p,
    folder,
    self ? 'move or change segments here' : 'create segments here',
  );
  checkText({ name: input.name, description: input.description });
  const rule = parseRule(input.rule);
  await checkRule(deps, parent, rule, self?.id ?? null);
  return {
    name: input.name,
    description: input.description ?? '',
    folder_id: folder.id,
    rule_json: JSON.stringify(rule),
  };
}

export async function createSegment(
  deps: AppDeps,
  p: Principal,
  parent: store.ParentSegmentRow,
  input: SegmentInputOut,
) {
  const f = await segmentFields(deps, p, parent, input, null);
  const id = await store.insertSegment(deps.storage.db, parent, p.userId, f, deps.clock.now().getTime());
  return (await store.segmentRow(deps.storage.db, parent.account_id, parent.id, id)) as store.SegmentRow;
}

export async function updateSegment(
  deps: AppDeps,
  p: Principal,
  parent: store.ParentSegmentRow,
  row: store.SegmentRow,
  input: SegmentInputOut,
) {
  const current = await segmentFolder(deps, parent, row);
  if (current) await requireFolderControl(deps.storage.db, p, current, 'change segments here');
  // Without a folderId the segment stays where it is.
  const f = await segmentFields(deps, p, parent, input, row);
  await store.updateSegment(deps.storage.db, row, p.userId, f, deps.clock.now().getTime());
  return (await store.segmentRow(deps.storage.db, parent.account_id, parent.id, row.id)) as store.SegmentRow;
}

/** Refused while another segment's rule or a registered user (a journey) refers to it. */
export async function deleteSegment(
  deps: AppDeps,
  p: Principal,
  parent: store.ParentSegmentRow,
  row: store.SegmentRow,
): Promise<void> {
  const folder = await segmentFolder(deps, parent, row);
  if (folder) await requireFolderControl(deps.storage.db, p, folder, 'delete segments here');
  const users = await segmentUsers(deps, parent, row.id);
  if (users.length > 0) {
    throw conflict(`The segment is still used by ${users.slice(0, 5).join(', ')}; change those first.`);
  }
  await store.deleteSegmentRow(deps.storage.db, row);
}
