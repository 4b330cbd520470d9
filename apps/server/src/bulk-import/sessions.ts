import { randomUUID } from 'node:crypto';
import type { BulkImportSession, BulkImportStatus } from '@svc/contracts';
import { conflict, notFound, unprocessable } from '../platform/errors';
import { dialectOf, type Executor, one, type Row, run, sql, transaction } from '../platform/storage';

/** The control database's rows of bulk import sessions and parts. Every query is scoped by account. */

/** What `bulk_import_sessions.status` holds: one of the wire's session states. */
type Statused = { status: BulkImportStatus };

/**
 * A bulk import session (platform/storage/controlTables/bulkImport.ts). `dir` is the folder of its files,
 * relative to the data directory; `perform_token` identifies the perform whose staged rows a commit lands,
 * null until a perform finished.
 */
export type SessionRow = Omit<Row<'bulk_import_sessions'>, 'status'> & Statused;

export type PartRow = Row<'bulk_import_parts'>;

/** The account's sessions, every column. */
const sessionsOf = (ex: Executor, accountId: number) =>
  ex.selectFrom('bulk_import_sessions').selectAll().where('account_id', '=', accountId).$narrowType<Statused>();

/** A session's parts, every column. */
const partsOf = (ex: Executor, session: SessionRow) =>
  ex
    .selectFrom('bulk_import_parts')
    .selectAll()
    .where('session_id', '=', session.id)
    .where('account_id', '=', session.account_id);

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

export async function insertSession(
  ex: Executor,
  s: { accountId: number; userId: number; name: string; database: string; table: string; now: number },
): Promise<SessionRow> {
  const dir = `bulk_import/${s.accountId}/${randomUUID()}`;
  const row = await ex
    .insertInto('bulk_import_sessions')
    .values({
      account_id: s.accountId,
      user_id: s.userId,
      name: s.name,
      database_name: s.database,
      table_name: s.table,
      dir,
      created_at: s.now,
      updated_at: s.now,
    })
    .onConflict((c) => c.columns(['account_id', 'name']).doNothing())
    .returningAll()
    .$narrowType<Statused>()
    .executeTakeFirst();
  if (!row) {
    throw conflict(`A bulk import session named "${s.name}" already exists. Choose another name or delete it first.`);
  }
  return row;
}

async function findSession(ex: Executor, accountId: number, name: string): Promise<SessionRow | null> {
  return (await sessionsOf(ex, accountId).where('name', '=', name).executeTakeFirst()) ?? null;
}

/** The account's session of that name; a missing one, or another account's, is the spec's 404. */
export async function requireSession(ex: Executor, accountId: number, name: string, id?: number): Promise<SessionRow> {
  const row = await findSession(ex, accountId, name);
  if (!row || (id !== undefined && row.id !== id)) throw notFound('bulk import session');
  return row;
}

export async function sessionById(ex: Executor, accountId: number, id: number): Promise<SessionRow | null> {
  return (await sessionsOf(ex, accountId).where('id', '=', id).executeTakeFirst()) ?? null;
}

export function listSessions(ex: Executor, accountId: number): Promise<SessionRow[]> {
  return sessionsOf(ex, accountId).orderBy('name').execute();
}

/** Sessions in a state a restart must finish, of every account (start-up recovery only). */
export function sessionsInState(ex: Executor, status: BulkImportStatus): Promise<SessionRow[]> {
  return ex
    .selectFrom('bulk_import_sessions')
    .selectAll()
    .where('status', '=', status)
    .orderBy('id')
    .$narrowType<Statused>()
    .execute();
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
export async function updateSession(
  ex: Executor,
  row: SessionRow,
  change: SessionChange,
  from: BulkImportStatus[],
  now: number,
  /** Only while this job is the session's perform. */
  jobId?: number,
): Promise<boolean> {
  const keys = Object.keys(change).filter((k) => CHANGEABLE.has(k));
  const sets = keys.map((k) => sql`${sql.ref(k)} = ${change[k as keyof SessionChange] ?? null}`);
  const changed = await run(
    ex,
    sql`UPDATE bulk_import_sessions SET ${sql.join([...sets, sql`updated_at = ${now}`])}
        WHERE id = ${row.id} AND account_id = ${row.account_id} AND status IN (${sql.join(from)})
          ${jobId === undefined ? sql`` : sql`AND job_id = ${jobId}`}`,
  );
  return changed === 1;
}

export async function deleteSessionRow(ex: Executor, row: SessionRow): Promise<void> {
  await ex
    .deleteFrom('bulk_import_sessions')
    .where('id', '=', row.id)
    .where('account_id', '=', row.account_id)
    .execute();
}

export function listParts(ex: Executor, session: SessionRow): Promise<PartRow[]> {
  return partsOf(ex, session).orderBy('name').execute();
}

export async function findPart(ex: Executor, session: SessionRow, name: string): Promise<PartRow | null> {
  return (await partsOf(ex, session).where('name', '=', name).executeTakeFirst()) ?? null;
}

/**
 * Records a part (replacing one of the same name) if the session still takes uploads; returns the
 * replaced part's file, to delete. The check is in the same transaction, so an upload that finishes
 * after a freeze or perform began is refused rather than slipped in.
 */
/**
 * Lists a part (a new one, or replacing the part of the same name), within the session's cap of `maxParts`:
 * past it a 422. The session's row is locked first, so uploads racing on several nodes cannot pass the cap.
 */
export function putPart(
  ex: Executor,
  session: SessionRow,
  part: { name: string; file: string; bytes: number; records: number; now: number },
  maxParts: number,
): Promise<string | null> {
  return transaction(ex, async (tx) => {
    const current = await one<SessionRow>(
      tx,
      sql`SELECT * FROM bulk_import_sessions WHERE account_id = ${session.account_id} AND id = ${session.id}${sql.raw(dialectOf(tx).forUpdate)}`,
    );
    if (!current) throw notFound('bulk import session');
    assertTakesUploads(current);
    const old = await findPart(tx, session, part.name);
    if (!old) {
      const count = await tx
        .selectFrom('bulk_import_parts')
        .select((s) => s.fn.countAll().as('n'))
        .where('session_id', '=', session.id)
        .executeTakeFirst();
      if (Number(count?.n ?? 0) >= maxParts) {
        throw unprocessable(
          `The bulk import session "${session.name}" already has ${maxParts} parts, the most one session takes (SVC_BULK_IMPORT_MAX_PARTS). Upload larger parts (up to 256 MiB each), replace a part of the same name, or import the rest in another session.`,
        );
      }
    }
    await tx
      .insertInto('bulk_import_parts')
      .values({
        account_id: session.account_id,
        session_id: session.id,
        name: part.name,
        file: part.file,
        bytes: part.bytes,
        records: part.records,
        created_at: part.now,
      })
      .onConflict((oc) =>
        oc.columns(['session_id', 'name']).doUpdateSet((eb) => ({
          file: eb.ref('excluded.file'),
          bytes: eb.ref('excluded.bytes'),
          records: eb.ref('excluded.records'),
          created_at: eb.ref('excluded.created_at'),
        })),
      )
      .execute();
    return old?.file ?? null;
  });
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

export async function deletePartRow(ex: Executor, part: PartRow): Promise<void> {
  await ex
    .deleteFrom('bulk_import_parts')
    .where('id', '=', part.id)
    .where('account_id', '=', part.account_id)
    .execute();
}
