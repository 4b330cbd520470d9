import { randomUUID } from 'node:crypto';
import type { BulkImportSession, BulkImportStatus } from '@svc/contracts';
import type { Db } from '../platform/db';
import { conflict, notFound } from '../platform/errors';

/** The control database's rows of bulk import sessions and parts. Every query is scoped by account. */

export interface SessionRow {
  id: number;
  account_id: number;
  user_id: number | null;
  name: string;
  database_name: string;
  table_name: string;
  status: BulkImportStatus;
  upload_frozen: number;
  job_id: number | null;
  valid_parts: number | null;
  error_parts: number | null;
  valid_records: number | null;
  error_records: number | null;
  /** Folder of the session's files, relative to the data directory. */
  dir: string;
  /** Identifies the perform whose staged rows a commit lands; null until a perform finished. */
  perform_token: string | null;
  created_at: number;
  updated_at: number;
}

export interface PartRow {
  id: number;
  account_id: number;
  session_id: number;
  name: string;
  file: string;
  bytes: number;
  records: number;
  created_at: number;
}

export function toWireSession(row: SessionRow): BulkImportSession {
  return {
    name: row.name,
    database: row.database_name,
    table: row.table_name,
    status: row.status,
    upload_frozen: row.upload_frozen === 1,
    job_id: row.job_id,
    valid_records: row.valid_records,
    error_records: row.error_records,
    valid_parts: row.valid_parts,
    error_parts: row.error_parts,
  };
}

export function insertSession(
  db: Db,
  s: { accountId: number; userId: number; name: string; database: string; table: string; now: number },
): SessionRow {
  const dir = `bulk_import/${s.accountId}/${randomUUID()}`;
  try {
    const r = db
      .prepare(
        `INSERT INTO bulk_import_sessions (account_id, user_id, name, database_name, table_name, dir, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(s.accountId, s.userId, s.name, s.database, s.table, dir, s.now, s.now);
    return requireSession(db, s.accountId, s.name, Number(r.lastInsertRowid));
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw conflict(`A bulk import session named "${s.name}" already exists. Choose another name or delete it first.`);
    }
    throw err;
  }
}

export function findSession(db: Db, accountId: number, name: string): SessionRow | null {
  return (
    (db.prepare('SELECT * FROM bulk_import_sessions WHERE account_id = ? AND name = ?').get(accountId, name) as
      | SessionRow
      | undefined) ?? null
  );
}

/** The account's session of that name; a missing one, or another account's, is the spec's 404. */
export function requireSession(db: Db, accountId: number, name: string, id?: number): SessionRow {
  const row = findSession(db, accountId, name);
  if (!row || (id !== undefined && row.id !== id)) throw notFound('bulk import session');
  return row;
}

export function sessionById(db: Db, accountId: number, id: number): SessionRow | null {
  return (
    (db.prepare('SELECT * FROM bulk_import_sessions WHERE account_id = ? AND id = ?').get(accountId, id) as
      | SessionRow
      | undefined) ?? null
  );
}

export function listSessions(db: Db, accountId: number): SessionRow[] {
  return db
    .prepare('SELECT * FROM bulk_import_sessions WHERE account_id = ? ORDER BY name')
    .all(accountId) as SessionRow[];
}

/** Sessions in a state a restart must finish, of every account (start-up recovery only). */
export function sessionsInState(db: Db, status: BulkImportStatus): SessionRow[] {
  return db.prepare('SELECT * FROM bulk_import_sessions WHERE status = ? ORDER BY id').all(status) as SessionRow[];
}

type SessionChange = Partial<
  Pick<
    SessionRow,
    | 'status'
    | 'upload_frozen'
    | 'job_id'
    | 'valid_parts'
    | 'error_parts'
    | 'valid_records'
    | 'error_records'
    | 'perform_token'
  >
>;

const CHANGEABLE = new Set([
  'status',
  'upload_frozen',
  'job_id',
  'valid_parts',
  'error_parts',
  'valid_records',
  'error_records',
  'perform_token',
]);

/**
 * Applies a change to a session only while it is in one of `from` (compare-and-set), so two requests
 * racing on one session cannot both move it. Returns false when the state had already moved on.
 */
export function updateSession(
  db: Db,
  row: SessionRow,
  change: SessionChange,
  from: BulkImportStatus[],
  now: number,
  /** Only while this job is the session's perform. */
  jobId?: number,
): boolean {
  const keys = Object.keys(change).filter((k) => CHANGEABLE.has(k));
  const sets = keys.map((k) => `${k} = ?`).join(', ');
  const values = keys.map((k) => change[k as keyof SessionChange] ?? null);
  const r = db
    .prepare(
      `UPDATE bulk_import_sessions SET ${sets}, updated_at = ?
       WHERE id = ? AND account_id = ? AND status IN (${from.map(() => '?').join(', ')})
         ${jobId === undefined ? '' : 'AND job_id = ?'}`,
    )
    .run(...values, now, row.id, row.account_id, ...from, ...(jobId === undefined ? [] : [jobId]));
  return r.changes === 1;
}

export function deleteSessionRow(db: Db, row: SessionRow): void {
  db.prepare('DELETE FROM bulk_import_sessions WHERE id = ? AND account_id = ?').run(row.id, row.account_id);
}

export function listParts(db: Db, session: SessionRow): PartRow[] {
  return db
    .prepare('SELECT * FROM bulk_import_parts WHERE session_id = ? AND account_id = ? ORDER BY name')
    .all(session.id, session.account_id) as PartRow[];
}

export function findPart(db: Db, session: SessionRow, name: string): PartRow | null {
  return (
    (db
      .prepare('SELECT * FROM bulk_import_parts WHERE session_id = ? AND account_id = ? AND name = ?')
      .get(session.id, session.account_id, name) as PartRow | undefined) ?? null
  );
}

/**
 * Records a part (replacing one of the same name) if the session still takes uploads; returns the
 * replaced part's file, to delete. The check is in the same transaction, so an upload that finishes
 * after a freeze or perform began is refused rather than slipped in.
 */
export function putPart(
  db: Db,
  session: SessionRow,
  part: { name: string; file: string; bytes: number; records: number; now: number },
): string | null {
  return db.transaction(() => {
    const current = sessionById(db, session.account_id, session.id);
    if (!current) throw notFound('bulk import session');
    assertTakesUploads(current);
    const old = findPart(db, session, part.name);
    db.prepare(
      `INSERT INTO bulk_import_parts (account_id, session_id, name, file, bytes, records, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id, name) DO UPDATE SET file = excluded.file, bytes = excluded.bytes,
         records = excluded.records, created_at = excluded.created_at`,
    ).run(session.account_id, session.id, part.name, part.file, part.bytes, part.records, part.now);
    return old?.file ?? null;
  })();
}

/** Parts can be added, replaced or deleted only while the session is uploading and not frozen. */
export function assertTakesUploads(session: SessionRow): void {
  if (session.status !== 'uploading') {
    throw conflict(
      `The bulk import session "${session.name}" is ${session.status}: parts can only change while it is uploading.`,
    );
  }
  if (session.upload_frozen === 1) {
    throw conflict(
      `The bulk import session "${session.name}" is frozen: unfreeze it (POST /v3/bulk_import/unfreeze/${session.name}) to change its parts.`,
    );
  }
}

export function deletePartRow(db: Db, part: PartRow): void {
  db.prepare('DELETE FROM bulk_import_parts WHERE id = ? AND account_id = ?').run(part.id, part.account_id);
}
