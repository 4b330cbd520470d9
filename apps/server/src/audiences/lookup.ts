import type { AudienceColumnType, FolderEntry, SegmentRule } from '@svc/contracts';
import type { AppDeps } from '../platform/context';
import { notFound } from '../platform/errors';
import { parseId } from '../platform/ids';
import type { Executor } from '../platform/storage';
import { matchingFingerprint, matchingKeys, type ProfileView, readProfiles } from './evaluate';
import { parseRule, readRule } from './rules/parse';
import {
  definitionOf,
  existingSegmentIds,
  type ParentSegmentRow,
  parentSegmentRow,
  segmentRow,
  segmentsInFolders,
} from './store';
import { segmentEntry } from './wire';

/**
 * The audiences feature's interface for other features (journeys API, journey engine, folder permissions),
 * exported through index.ts. Ids are accepted as strings or numbers and returned as strings; everything is
 * scoped by account, and another account's object is simply not found. Every lookup reads the storage
 * layer, so each is async and works on both backends.
 */

export type { ProfileView } from './evaluate';
export type { SegmentUsageProvider } from './usage';
export type { VariantMembersProvider } from './variantMembers';

export interface ParentSegmentInfo {
  id: string;
  name: string;
  rootFolderId: string;
  /** The master key column: profile keys are its values as text. */
  key: string;
  /** The master key column (type `string`, as keys are text) and every attribute, by attribute name. */
  columns: { name: string; type: AudienceColumnType }[];
}

/** The parent segment, or null when there is none in the account. */
export async function findParentSegment(
  deps: AppDeps,
  accountId: number,
  id: string | number,
): Promise<ParentSegmentInfo | null> {
  const n = parseId(id);
  const row = n === null ? null : await parentSegmentRow(deps.storage.db, accountId, n);
  if (!row) return null;
  const def = definitionOf(row);
  const columns = def.attributes.map((a) => ({ name: a.name, type: a.type }));
  if (!columns.some((c) => c.name === def.master.key)) columns.unshift({ name: def.master.key, type: 'string' });
  return { id: String(row.id), name: row.name, rootFolderId: String(row.root_folder_id), key: def.master.key, columns };
}

export interface SegmentInfo {
  id: string;
  parentSegmentId: string;
  name: string;
  folderId: string;
}

/** A segment of the parent segment, or null. */
export async function findSegment(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  segmentId: string | number,
): Promise<SegmentInfo | null> {
  const p = parseId(parentSegmentId);
  const s = parseId(segmentId);
  const row = p === null || s === null ? null : await segmentRow(deps.storage.db, accountId, p, s);
  if (!row) return null;
  return { id: String(row.id), parentSegmentId: String(p), name: row.name, folderId: String(row.folder_id) };
}

/** The ids among `segmentIds` that are not segments of that parent segment (all of them if it is unknown). */
export async function missingSegments(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  segmentIds: (string | number)[],
): Promise<string[]> {
  const p = parseId(parentSegmentId);
  const ids = segmentIds.map(parseId).filter((id): id is number => id !== null);
  // One query for them all: a journey names up to hundreds of segments, and on PostgreSQL each is a round trip.
  const found = p === null ? new Set<number>() : await existingSegmentIds(deps.storage.db, accountId, p, ids);
  return segmentIds.filter((id) => !found.has(parseId(id) ?? Number.NaN)).map(String);
}

/** The parent segment and the rule of a segment (by id) or a rule itself, with the API's 404 and 400 errors. */
async function ruleIn(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  segment: string | number | SegmentRule,
): Promise<{ parent: ParentSegmentRow; rule: SegmentRule }> {
  const p = parseId(parentSegmentId);
  const parent = p === null ? null : await parentSegmentRow(deps.storage.db, accountId, p);
  if (!parent) throw notFound('parent segment');
  if (typeof segment === 'object') return { parent, rule: parseRule(segment) };
  const s = parseId(segment);
  const row = s === null ? null : await segmentRow(deps.storage.db, accountId, parent.id, s);
  if (!row) throw notFound('segment');
  return { parent, rule: readRule(row.rule_json) };
}

/**
 * Keys of the profiles in a segment (by id) or matching a rule, at the moment `at` (time filters are
 * relative to it), from the last build of the parent segment's profiles. Throws the API's errors: 404 for
 * an unknown parent segment or segment, 400 for a bad rule, 409 while the profiles are not built.
 */
export async function segmentProfileKeys(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  segment: string | number | SegmentRule,
  at: Date,
): Promise<string[]> {
  const { parent, rule } = await ruleIn(deps, accountId, parentSegmentId, segment);
  return matchingKeys(deps, parent, rule, at);
}

/**
 * The fingerprint of the keys segmentProfileKeys would answer (evaluate.ts `matchingFingerprint`): equal
 * fingerprints, equal sets of keys. The same errors.
 */
export async function segmentFingerprint(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  segment: string | number | SegmentRule,
  at: Date,
): Promise<string> {
  const { parent, rule } = await ruleIn(deps, accountId, parentSegmentId, segment);
  return matchingFingerprint(deps, parent, rule, at);
}

/** Attribute values (by attribute name) of the given profiles; unknown keys are left out. */
export async function profileRows(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  keys: string[],
): Promise<ProfileView[]> {
  const p = parseId(parentSegmentId);
  const parent = p === null ? null : await parentSegmentRow(deps.storage.db, accountId, p);
  if (!parent) throw notFound('parent segment');
  return readProfiles(deps, parent, keys);
}

/** The account's parent segments with their profile counts as of their last build (the overview). */
export function parentSegmentSizes(
  ex: Executor,
  accountId: number,
): Promise<Pick<ParentSegmentRow, 'id' | 'name' | 'population'>[]> {
  return ex
    .selectFrom('parent_segments')
    .select(['id', 'name', 'population'])
    .where('account_id', '=', accountId)
    .orderBy('population', 'desc')
    .orderBy('id')
    .execute();
}

/** The segments in some folders of an account, as folder entries (the folders feature lists them). */
export function segmentFolderEntries(deps: AppDeps) {
  return async (accountId: number, folderIds: number[]): Promise<FolderEntry[]> =>
    (await segmentsInFolders(deps.storage.db, accountId, folderIds)).map(segmentEntry);
}
