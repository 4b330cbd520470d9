import { type Journey, journeySchema } from '@svc/journey';
import type { z } from 'zod';
import { userColumnOf } from '../accounts';
import { notFound } from '../platform/errors';
import { type Executor, insertId, many, one, run, sql } from '../platform/storage';
import { parseStored } from '../platform/storedJson';

/**
 * SQL of journeys, their stage ids and their events. Every query is scoped by account; a journey of
 * another account is not told apart from a missing one. Times are Unix milliseconds.
 */

export interface JourneyRow {
  id: number;
  account_id: number;
  parent_segment_id: string;
  folder_id: string;
  name: string;
  state: 'draft' | 'launched';
  paused: number;
  /** The journey's attributes (camelCase, as normalised), without the columns below. */
  document: string;
  created_by: number | null;
  updated_by: number | null;
  created_at: number;
  updated_at: number;
  launched_at: number | null;
  paused_at: number | null;
  /** JSON (versionPlan.ts `VersionOf`) on a draft made to replace a launched journey. */
  version_of: string | null;
  /** On a journey a launched version replaced: the version's id. */
  replaced_by: number | null;
}

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
  return (await one<JourneyRow>(ex, sql`SELECT * FROM journeys WHERE account_id = ${accountId} AND id = ${n}`)) ?? null;
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
  state: 'draft' | 'launched';
  body: JourneyBody;
  userId: number;
  now: number;
}

export function insertJourneyRow(ex: Executor, j: NewJourneyRow): Promise<number> {
  return insertId(
    ex,
    sql`INSERT INTO journeys (account_id, parent_segment_id, folder_id, name, state, paused, document,
          created_by, updated_by, created_at, updated_at, launched_at, paused_at)
        VALUES (${j.accountId}, ${j.parentSegmentId}, ${j.folderId}, ${j.name}, ${j.state}, 0,
          ${JSON.stringify(j.body)}, ${j.userId}, ${j.userId}, ${j.now}, ${j.now},
          ${j.state === 'launched' ? j.now : null}, NULL)
        RETURNING id`,
  );
}

export interface JourneyUpdate {
  folderId: string;
  name: string;
  state: 'draft' | 'launched';
  body: JourneyBody;
  userId: number;
  now: number;
  launchedAt: number | null;
}

export async function updateJourneyRow(ex: Executor, row: JourneyRow, u: JourneyUpdate): Promise<void> {
  await run(
    ex,
    sql`UPDATE journeys SET folder_id = ${u.folderId}, name = ${u.name}, state = ${u.state},
          document = ${JSON.stringify(u.body)}, updated_by = ${u.userId}, updated_at = ${u.now},
          launched_at = ${u.launchedAt}
        WHERE account_id = ${row.account_id} AND id = ${row.id}`,
  );
}

export async function setJourneyBody(ex: Executor, accountId: number, id: number, body: JourneyBody): Promise<void> {
  await run(
    ex,
    sql`UPDATE journeys SET document = ${JSON.stringify(body)} WHERE account_id = ${accountId} AND id = ${id}`,
  );
}

export async function setPaused(
  ex: Executor,
  row: JourneyRow,
  paused: boolean,
  userId: number,
  now: number,
): Promise<void> {
  await run(
    ex,
    sql`UPDATE journeys SET paused = ${paused ? 1 : 0}, paused_at = ${paused ? now : null}, updated_by = ${userId},
          updated_at = ${now}
        WHERE account_id = ${row.account_id} AND id = ${row.id}`,
  );
}

export async function deleteJourneyRow(ex: Executor, row: JourneyRow): Promise<void> {
  await run(ex, sql`DELETE FROM journeys WHERE account_id = ${row.account_id} AND id = ${row.id}`);
}

/** A journey in lists, with the name of the user who created it (null once that user is removed). */
export type JourneyListRow = JourneyRow & { created_by_name: string | null };

const LISTED = sql`SELECT j.*, ${userColumnOf('name', 'j.created_by', 'j.account_id')} AS created_by_name
  FROM journeys j`;

/** Journeys whose folder is one of `folderIds`, oldest first. */
export async function journeysInFolders(
  ex: Executor,
  accountId: number,
  folderIds: ReadonlyArray<string>,
): Promise<JourneyListRow[]> {
  if (folderIds.length === 0) return [];
  return many<JourneyListRow>(
    ex,
    sql`${LISTED} WHERE j.account_id = ${accountId} AND j.folder_id IN (${sql.join([...folderIds])}) ORDER BY j.id`,
  );
}

/** The account's journeys, optionally of one parent segment and/or one folder, oldest first. */
export function listJourneyRows(
  ex: Executor,
  accountId: number,
  filter: { parentSegmentId?: string | undefined; folderId?: string | undefined },
): Promise<JourneyListRow[]> {
  const where = [sql`j.account_id = ${accountId}`];
  if (filter.parentSegmentId !== undefined) where.push(sql`j.parent_segment_id = ${filter.parentSegmentId}`);
  if (filter.folderId !== undefined) where.push(sql`j.folder_id = ${filter.folderId}`);
  return many<JourneyListRow>(ex, sql`${LISTED} WHERE ${sql.join(where, sql` AND `)} ORDER BY j.id`);
}

/**
 * Launched journeys that are not paused, of every account, by account: what the engine's schedule runs.
 * The one query that looks across accounts; each run is then scoped by its journey's account.
 */
export function runningJourneyRows(ex: Executor): Promise<JourneyRow[]> {
  return many<JourneyRow>(
    ex,
    sql`SELECT * FROM journeys WHERE state = 'launched' AND paused = 0 ORDER BY account_id, id`,
  );
}

// Stage ids: integers allocated per stage (segment rules name stages by integer id).

export async function stageIdsOf(ex: Executor, accountId: number, journeyId: number): Promise<string[]> {
  const rows = await many<{ id: number }>(
    ex,
    sql`SELECT id FROM journey_stages WHERE account_id = ${accountId} AND journey_id = ${journeyId} ORDER BY id`,
  );
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
    const id = await insertId(
      ex,
      sql`INSERT INTO journey_stages (account_id, journey_id) VALUES (${accountId}, ${journeyId}) RETURNING id`,
    );
    stages.push({ ...stage, id: String(id) });
  }
  return { ...body, journeyStages: stages };
}

/** Forgets stage ids the journey no longer uses, so they cannot be claimed again by a later PATCH. */
export async function pruneStageIds(ex: Executor, accountId: number, journeyId: number, body: JourneyBody) {
  const kept = new Set(body.journeyStages.map((s) => s.id));
  const gone = (await stageIdsOf(ex, accountId, journeyId)).filter((id) => !kept.has(id)).map(Number);
  if (gone.length === 0) return;
  await run(ex, sql`DELETE FROM journey_stages WHERE account_id = ${accountId} AND id IN (${sql.join(gone)})`);
}

// Events

export interface JourneyEventRow {
  id: number;
  account_id: number;
  journey_id: number;
  kind: string;
  at: number;
  user_id: number | null;
  started_at: number | null;
  ended_at: number | null;
  details: string | null;
}

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
  await run(
    ex,
    sql`INSERT INTO journey_events (account_id, journey_id, kind, at, user_id, started_at, ended_at)
        VALUES (${e.accountId}, ${e.journeyId}, ${e.kind}, ${e.at}, ${e.userId}, ${e.startedAt ?? null},
          ${e.endedAt ?? null})`,
  );
}

export function eventsOf(ex: Executor, accountId: number, journeyId: number, kind?: string) {
  const ofKind = kind === undefined ? sql`` : sql` AND kind = ${kind}`;
  return many<JourneyEventRow>(
    ex,
    sql`SELECT * FROM journey_events WHERE account_id = ${accountId} AND journey_id = ${journeyId}${ofKind}
        ORDER BY id`,
  );
}

/** The account's launched journeys, without their documents (the overview). */
export function launchedJourneys(
  ex: Executor,
  accountId: number,
): Promise<{ id: number; name: string; paused: number }[]> {
  return many(
    ex,
    sql`SELECT id, name, paused FROM journeys WHERE account_id = ${accountId} AND state = 'launched' ORDER BY id`,
  );
}
