import type { Journey } from '@svc/journey';
import type { Db } from '../platform/db';
import { notFound } from '../platform/errors';

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
}

/** What a journey's `document` column holds: the attributes the columns do not. */
export type JourneyBody = Pick<Journey, 'description' | 'goal' | 'allowReentry' | 'journeyStages'>;

export function bodyOf(journey: Journey): JourneyBody {
  return {
    description: journey.description,
    goal: journey.goal,
    allowReentry: journey.allowReentry,
    journeyStages: journey.journeyStages,
  };
}

export function findJourneyRow(db: Db, accountId: number, id: string | number): JourneyRow | null {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  return (
    (db.prepare('SELECT * FROM journeys WHERE account_id = ? AND id = ?').get(accountId, n) as
      | JourneyRow
      | undefined) ?? null
  );
}

export function getJourneyRow(db: Db, accountId: number, id: string | number): JourneyRow {
  const row = findJourneyRow(db, accountId, id);
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

export function insertJourneyRow(db: Db, j: NewJourneyRow): number {
  const result = db
    .prepare(
      `INSERT INTO journeys (account_id, parent_segment_id, folder_id, name, state, paused, document,
         created_by, updated_by, created_at, updated_at, launched_at, paused_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, NULL)`,
    )
    .run(
      j.accountId,
      j.parentSegmentId,
      j.folderId,
      j.name,
      j.state,
      JSON.stringify(j.body),
      j.userId,
      j.userId,
      j.now,
      j.now,
      j.state === 'launched' ? j.now : null,
    );
  return Number(result.lastInsertRowid);
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

export function updateJourneyRow(db: Db, row: JourneyRow, u: JourneyUpdate): void {
  db.prepare(
    `UPDATE journeys SET folder_id = ?, name = ?, state = ?, document = ?, updated_by = ?, updated_at = ?,
       launched_at = ? WHERE account_id = ? AND id = ?`,
  ).run(u.folderId, u.name, u.state, JSON.stringify(u.body), u.userId, u.now, u.launchedAt, row.account_id, row.id);
}

export function setJourneyBody(db: Db, accountId: number, id: number, body: JourneyBody): void {
  db.prepare('UPDATE journeys SET document = ? WHERE account_id = ? AND id = ?').run(
    JSON.stringify(body),
    accountId,
    id,
  );
}

export function setPaused(db: Db, row: JourneyRow, paused: boolean, userId: number, now: number): void {
  db.prepare(
    'UPDATE journeys SET paused = ?, paused_at = ?, updated_by = ?, updated_at = ? WHERE account_id = ? AND id = ?',
  ).run(paused ? 1 : 0, paused ? now : null, userId, now, row.account_id, row.id);
}

export function deleteJourneyRow(db: Db, row: JourneyRow): void {
  db.prepare('DELETE FROM journeys WHERE account_id = ? AND id = ?').run(row.account_id, row.id);
}

/** Journeys whose folder is one of `folderIds`, oldest first. */
export function journeysInFolders(db: Db, accountId: number, folderIds: ReadonlyArray<string>): JourneyRow[] {
  if (folderIds.length === 0) return [];
  const marks = folderIds.map(() => '?').join(', ');
  return db
    .prepare(`SELECT * FROM journeys WHERE account_id = ? AND folder_id IN (${marks}) ORDER BY id`)
    .all(accountId, ...folderIds) as JourneyRow[];
}

/** The account's journeys, optionally of one parent segment and/or one folder, oldest first. */
export function listJourneyRows(
  db: Db,
  accountId: number,
  filter: { parentSegmentId?: string | undefined; folderId?: string | undefined },
): JourneyRow[] {
  return db
    .prepare(
      `SELECT * FROM journeys WHERE account_id = ?
         AND (? IS NULL OR parent_segment_id = ?) AND (? IS NULL OR folder_id = ?) ORDER BY id`,
    )
    .all(
      accountId,
      filter.parentSegmentId ?? null,
      filter.parentSegmentId ?? null,
      filter.folderId ?? null,
      filter.folderId ?? null,
    ) as JourneyRow[];
}

// Stage ids: integers allocated per stage (segment rules name stages by integer id).

export function stageIdsOf(db: Db, accountId: number, journeyId: number): string[] {
  const rows = db
    .prepare('SELECT id FROM journey_stages WHERE account_id = ? AND journey_id = ? ORDER BY id')
    .all(accountId, journeyId) as { id: number }[];
  return rows.map((r) => String(r.id));
}

/** Gives every stage without an id a new one; ids already given are kept (the validator vetted them). */
export function assignStageIds(db: Db, accountId: number, journeyId: number, body: JourneyBody): JourneyBody {
  const insert = db.prepare('INSERT INTO journey_stages (account_id, journey_id) VALUES (?, ?)');
  return {
    ...body,
    journeyStages: body.journeyStages.map((stage) =>
      stage.id === undefined ? { ...stage, id: String(insert.run(accountId, journeyId).lastInsertRowid) } : stage,
    ),
  };
}

/** Forgets stage ids the journey no longer uses, so they cannot be claimed again by a later PATCH. */
export function pruneStageIds(db: Db, accountId: number, journeyId: number, body: JourneyBody): void {
  const kept = new Set(body.journeyStages.map((s) => s.id));
  for (const id of stageIdsOf(db, accountId, journeyId)) {
    if (!kept.has(id)) {
      db.prepare('DELETE FROM journey_stages WHERE account_id = ? AND id = ?').run(accountId, Number(id));
    }
  }
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

export function insertEvent(
  db: Db,
  e: {
    accountId: number;
    journeyId: number;
    kind: string;
    at: number;
    userId: number;
    startedAt?: number;
    endedAt?: number;
  },
): void {
  db.prepare(
    `INSERT INTO journey_events (account_id, journey_id, kind, at, user_id, started_at, ended_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(e.accountId, e.journeyId, e.kind, e.at, e.userId, e.startedAt ?? null, e.endedAt ?? null);
}

export function eventsOf(db: Db, accountId: number, journeyId: number, kind?: string): JourneyEventRow[] {
  const sql = kind
    ? 'SELECT * FROM journey_events WHERE account_id = ? AND journey_id = ? AND kind = ? ORDER BY id'
    : 'SELECT * FROM journey_events WHERE account_id = ? AND journey_id = ? ORDER BY id';
  const args = kind ? [accountId, journeyId, kind] : [accountId, journeyId];
  return db.prepare(sql).all(...args) as JourneyEventRow[];
}
