import { type Journey, journeySchema } from '@svc/journey';
import type { z } from 'zod';
import { userColumnOf } from '../accounts';
import { notFound } from '../platform/errors';
import { backendOf, type Executor, one, type Row, sql } from '../platform/storage';
import { parseStored } from '../platform/storedJson';

/**
 * SQL of journeys, their stage ids and their events. Every query is scoped by account; a journey of
 * another account is not told apart from a missing one. Times are Unix milliseconds.
 */

export type JourneyState = 'draft' | 'launched';

/** Narrows `state` to the values a journey takes (the builder's `$narrowType`; nothing is checked at run time). */
type Stated = { state: JourneyState };

/**
 * A row of `journeys` (platform/storage/controlTables/journeys.ts), its state narrowed. `document` holds the
 * journey's attributes (camelCase, as normalised) without the columns; `version_of` JSON (versionPlan.ts
 * `VersionOf`) on a draft made to replace a launched journey; `replaced_by` on a journey a launched version
 * replaced, the version's id.
 */
export type JourneyRow = Omit<Row<'journeys'>, 'state'> & Stated;

/** What a journey's `document` column holds: the attributes the columns do not. */
const journeyBody = journeySchema.pick({ description: true, goal: true, allowReentry: true, journeyStages: true });
export type JourneyBody = z.output<typeof journeyBody>;

/** A journey's `document` column read back through its schema. */
export const readJourneyBody = (text: string): JourneyBody => parseStored(journeyBody, text, 'journeys.document');

export function bodyOf(journey: Journey): JourneyBody {
  return {
    description: journey.description,
    goal: journey.goal,
    allowReentry: journey.allowReentry,
    journeyStages: journey.journeyStages,
  };
}

export async function findJourneyRow(ex: Executor, accountId: number, id: string | number): Promise<JourneyRow | null> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  const row = await ex
    .selectFrom('journeys')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', n)
    .$narrowType<Stated>()
    .executeTakeFirst();
  return row ?? null;
}

export async function getJourneyRow(ex: Executor, accountId: number, id: string | number): Promise<JourneyRow> {
  const row = await findJourneyRow(ex, accountId, id);
  if (!row) throw notFound('journey');
  return row;
}

export interface NewJourneyRow {
  accountId: number;
  parentSegmentId: string;
  folderId: string;
  name: string;
  state: JourneyState;
  body: JourneyBody;
  userId: number;
  now: number;
}

export async function insertJourneyRow(ex: Executor, j: NewJourneyRow): Promise<number> {
  const { id } = await ex
    .insertInto('journeys')
    .values({
      account_id: j.accountId,
      parent_segment_id: j.parentSegmentId,
      folder_id: j.folderId,
      name: j.name,
      state: j.state,
      paused: 0,
      document: JSON.stringify(j.body),
      created_by: j.userId,
      updated_by: j.userId,
      created_at: j.now,
      updated_at: j.now,
      launched_at: j.state === 'launched' ? j.now : null,
      paused_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export interface JourneyUpdate {
  folderId: string;
  name: string;
  state: JourneyState;
  body: JourneyBody;
  userId: number;
  now: number;
  launchedAt: number | null;
}

export async function updateJourneyRow(ex: Executor, row: JourneyRow, u: JourneyUpdate): Promise<void> {
  await ex
    .updateTable('journeys')
    .set({
      folder_id: u.folderId,
      name: u.name,
      state: u.state,
      document: JSON.stringify(u.body),
      updated_by: u.userId,
      updated_at: u.now,
      launched_at: u.launchedAt,
    })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .execute();
}

export async function setJourneyBody(ex: Executor, accountId: number, id: number, body: JourneyBody): Promise<void> {
  await ex
    .updateTable('journeys')
    .set({ document: JSON.stringify(body) })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function setPaused(
  ex: Executor,
  row: JourneyRow,
  paused: boolean,
  userId: number,
  now: number,
): Promise<void> {
  await ex
    .updateTable('journeys')
    .set({ paused: paused ? 1 : 0, paused_at: paused ? now : null, updated_by: userId, updated_at: now })
    .where('account_id', '=', row.account_id)
    .where('id', '=', row.id)
    .execute();
}

/**
 * Holds the journey's row until the transaction ends, or says it is gone: on PostgreSQL a key-share lock, so it
 * cannot be deleted meanwhile (the journey engine's per-profile rows have no foreign key there, migration 49); on
 * SQLite the transaction's write lock already holds everything.
 */
export async function holdJourneyRow(ex: Executor, accountId: number, id: number): Promise<boolean> {
  const lock = backendOf(ex) === 'postgres' ? sql` FOR KEY SHARE` : sql``;
  const row = await one<{ id: number }>(
    ex,
    sql`SELECT id FROM journeys WHERE account_id = ${accountId} AND id = ${id}${lock}`,
  );
  return row !== undefined;
}

export async function deleteJourneyRow(ex: Executor, row: JourneyRow): Promise<void> {
  await ex.deleteFrom('journeys').where('account_id', '=', row.account_id).where('id', '=', row.id).execute();
}

/** A journey in lists, with the name of the user who created it (null once that user is removed). */
export type JourneyListRow = JourneyRow & { created_by_name: string | null };

const listed = (ex: Executor) =>
  ex
    .selectFrom('journeys as j')
    .selectAll('j')
    .select(userColumnOf('name', 'j.created_by', 'j.account_id').$castTo<string | null>().as('created_by_name'))
    .$narrowType<Stated>();

/** Journeys whose folder is one of `folderIds`, oldest first. */
export async function journeysInFolders(
  ex: Executor,
  accountId: number,
  folderIds: ReadonlyArray<string>,
): Promise<JourneyListRow[]> {
  if (folderIds.length === 0) return [];
  return listed(ex)
    .where('j.account_id', '=', accountId)
    .where('j.folder_id', 'in', folderIds)
    .orderBy('j.id')
    .execute();
}

/** The account's journeys, optionally of one parent segment and/or one folder, oldest first. */
export function listJourneyRows(
  ex: Executor,
  accountId: number,
  filter: { parentSegmentId?: string | undefined; folderId?: string | undefined },
): Promise<JourneyListRow[]> {
  const { parentSegmentId, folderId } = filter;
  return listed(ex)
    .where('j.account_id', '=', accountId)
    .$if(parentSegmentId !== undefined, (q) => q.where('j.parent_segment_id', '=', parentSegmentId ?? ''))
    .$if(folderId !== undefined, (q) => q.where('j.folder_id', '=', folderId ?? ''))
    .orderBy('j.id')
    .execute();
}

/**
 * Launched journeys that are not paused, of every account, by account: what the engine's schedule runs.
 * The one query that looks across accounts; each run is then scoped by its journey's account.
 */
export function runningJourneyRows(ex: Executor): Promise<JourneyRow[]> {
  return ex
    .selectFrom('journeys')
    .selectAll()
    .where('state', '=', 'launched')
    .where('paused', '=', 0)
    .orderBy('account_id')
    .orderBy('id')
    .$narrowType<Stated>()
    .execute();
}

// Stage ids: integers allocated per stage (segment rules name stages by integer id).

export async function stageIdsOf(ex: Executor, accountId: number, journeyId: number): Promise<string[]> {
  const rows = await ex
    .selectFrom('journey_stages')
    .select('id')
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .orderBy('id')
    .execute();
  return rows.map((r) => String(r.id));
}

/** Gives every stage without an id a new one; ids already given are kept (the validator vetted them). */
export async function assignStageIds(
  ex: Executor,
  accountId: number,
  journeyId: number,
  body: JourneyBody,
): Promise<JourneyBody> {
  const stages: JourneyBody['journeyStages'] = [];
  for (const stage of body.journeyStages) {
    if (stage.id !== undefined) {
      stages.push(stage);
      continue;
    }
    const { id } = await ex
      .insertInto('journey_stages')
      .values({ account_id: accountId, journey_id: journeyId })
      .returning('id')
      .executeTakeFirstOrThrow();
    stages.push({ ...stage, id: String(id) });
  }
  return { ...body, journeyStages: stages };
}

/** Forgets stage ids the journey no longer uses, so they cannot be claimed again by a later PATCH. */
export async function pruneStageIds(ex: Executor, accountId: number, journeyId: number, body: JourneyBody) {
  const kept = new Set(body.journeyStages.map((s) => s.id));
  const gone = (await stageIdsOf(ex, accountId, journeyId)).filter((id) => !kept.has(id)).map(Number);
  if (gone.length === 0) return;
  await ex.deleteFrom('journey_stages').where('account_id', '=', accountId).where('id', 'in', gone).execute();
}

// Events

/** A row of `journey_events`. */
type JourneyEventRow = Row<'journey_events'>;

export async function insertEvent(
  ex: Executor,
  e: {
    accountId: number;
    journeyId: number;
    kind: string;
    at: number;
    userId: number;
    startedAt?: number;
    endedAt?: number;
  },
): Promise<void> {
  await ex
    .insertInto('journey_events')
    .values({
      account_id: e.accountId,
      journey_id: e.journeyId,
      kind: e.kind,
      at: e.at,
      user_id: e.userId,
      started_at: e.startedAt ?? null,
      ended_at: e.endedAt ?? null,
    })
    .execute();
}

export function eventsOf(
  ex: Executor,
  accountId: number,
  journeyId: number,
  kind?: string,
): Promise<JourneyEventRow[]> {
  return ex
    .selectFrom('journey_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('journey_id', '=', journeyId)
    .$if(kind !== undefined, (q) => q.where('kind', '=', kind ?? ''))
    .orderBy('id')
    .execute();
}

/** The account's launched journeys, without their documents (the overview). */
export function launchedJourneys(
  ex: Executor,
  accountId: number,
): Promise<Pick<JourneyRow, 'id' | 'name' | 'paused'>[]> {
  return ex
    .selectFrom('journeys')
    .select(['id', 'name', 'paused'])
    .where('account_id', '=', accountId)
    .where('state', '=', 'launched')
    .orderBy('id')
    .execute();
}
