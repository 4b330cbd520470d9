import { randomUUID } from 'node:crypto';
import { findDatabase, refreshCatalog, requireDatabase, requireTable } from '../data';
import type { JobRunner } from '../jobs';
import type { Principal } from '../platform/auth';
import { ApiError, conflict, notFound, serviceUnavailable, unprocessable } from '../platform/errors';
import { isStorageUnavailable, transaction } from '../platform/storage';
import { WorkerCrashed } from '../platform/workerPool';
import { newPartFile, performFiles, writePartFile } from './files';
import { type BulkImportDeps, bulkImportOptions } from './options';
import { BULK_IMPORT_JOB, type PerformParams } from './performJob';
import {
  assertTakesUploads,
  deletePartRow,
  deleteSessionRow,
  findPart,
  insertSession,
  listParts,
  putPart,
  requireSession,
  type SessionRow,
  sessionsInState,
  updateSession,
} from './sessions';
import { keepFiles, removeDir, removeFile } from './sharedFiles';
import { commitInWorker } from './tasks';

/** The operations of bulk import sessions, in the order of their life cycle (wire-compat §2.5). */

const now = (deps: BulkImportDeps) => deps.clock.now().getTime();

export async function createSession(
  deps: BulkImportDeps,
  p: Principal,
  name: string,
  database: string,
  table: string,
): Promise<SessionRow> {
  const db = await requireDatabase(deps.storage.db, p.accountId, database);
  await requireTable(deps.storage.db, p.accountId, db.id, table);
  return insertSession(deps.storage.db, {
    accountId: p.accountId,
    userId: p.userId,
    name,
    database,
    table,
    now: now(deps),
  });
}

/** Stores a part from the request body; a part of the same name is replaced once the new one is safe. */
export async function uploadPart(
  deps: BulkImportDeps,
  session: SessionRow,
  part: string,
  body: AsyncIterable<Uint8Array>,
): Promise<void> {
  assertTakesUploads(session);
  const rel = newPartFile(session);
  const options = bulkImportOptions(deps);
  const { bytes, records } = await writePartFile(deps.config.dataDir, rel, body, options.limits);
  let replaced: string | null;
  try {
    // Every node may perform the session: the part is kept where they all read it before it is listed.
    await keepFiles(deps, session.account_id, [rel]);
    const row = { name: part, file: rel, bytes, records, now: now(deps) };
    replaced = await putPart(deps.storage.db, session, row, options.maxParts);
  } catch (err) {
    await removeFile(deps, session.account_id, rel);
    throw err;
  }
  await removeFile(deps, session.account_id, replaced);
}

export async function deletePart(deps: BulkImportDeps, session: SessionRow, name: string): Promise<void> {
  assertTakesUploads(session);
  const part = await findPart(deps.storage.db, session, name);
  if (!part) throw notFound('bulk import part');
  await deletePartRow(deps.storage.db, part);
  await removeFile(deps, session.account_id, part.file);
}

const busy = (s: SessionRow) =>
  conflict(`The bulk import session "${s.name}" is ${s.status}; wait until it is ready, or delete it once it is.`);

/** Freezing stops uploads; perform freezes by itself. A performed (ready) session is frozen already. */
export async function freeze(deps: BulkImportDeps, session: SessionRow): Promise<void> {
  if (session.status === 'ready') return;
  if (session.status !== 'uploading') throw busy(session);
  await updateSession(deps.storage.db, session, { upload_frozen: 1 }, ['uploading'], now(deps));
}

/** Unfreezing a performed session sends it back to uploading: its perform results no longer count. */
export async function unfreeze(deps: BulkImportDeps, session: SessionRow): Promise<void> {
  if (session.status !== 'uploading' && session.status !== 'ready') throw busy(session);
  const cleared = {
    status: 'uploading' as const,
    upload_frozen: 0,
    perform_token: null,
    valid_parts: null,
    error_parts: null,
    valid_records: null,
    error_records: null,
  };
  await updateSession(
    deps.storage.db,
    session,
    session.status === 'ready' ? cleared : { upload_frozen: 0 },
    [session.status],
    now(deps),
  );
  if (session.perform_token)
    await removeDir(deps, session.account_id, `${session.dir}/perform-${session.perform_token}`);
}

/** Queues the perform job (off the request) and moves the session to performing, in one transaction. */
export async function perform(
  deps: BulkImportDeps,
  runner: JobRunner,
  p: Principal,
  session: SessionRow,
  priority: number,
): Promise<number> {
  if (session.status !== 'uploading' && session.status !== 'ready') {
    throw conflict(`The bulk import session "${session.name}" is ${session.status}: it cannot be performed now.`);
  }
  if ((await listParts(deps.storage.db, session)).length === 0) {
    throw unprocessable(
      `The bulk import session "${session.name}" has no parts: upload one with PUT /v3/bulk_import/upload_part/${session.name}/<part>.`,
    );
  }
  const database = await requireDatabase(deps.storage.db, p.accountId, session.database_name);
  await requireTable(deps.storage.db, p.accountId, database.id, session.table_name);
  const params: PerformParams = { session_id: session.id, session: session.name, token: randomUUID() };
  return transaction(deps.storage, async (tx) => {
    const counts = { valid_parts: null, error_parts: null, valid_records: null, error_records: null };
    if (
      !(await updateSession(
        tx,
        session,
        { status: 'performing', upload_frozen: 1, ...counts },
        [session.status],
        now(deps),
      ))
    ) {
      throw conflict(`The bulk import session "${session.name}" changed meanwhile; look at it and try again.`);
    }
    // The job row goes in with the session's change: enqueue(job, ex) writes in this transaction.
    const job = await runner.enqueue(
      {
        accountId: p.accountId,
        userId: p.userId,
        type: BULK_IMPORT_JOB,
        database: session.database_name,
        query: null,
        params: { ...params },
        priority,
      },
      tx,
    );
    await tx
      .updateTable('bulk_import_sessions')
      .set({ job_id: job.id })
      .where('id', '=', session.id)
      .where('account_id', '=', session.account_id)
      .execute();
    return job.id;
  });
}

/**
 * Lands the performed rows. Synchronous from `committing` to `committed`; a crash in between leaves
 * `committing`, which start-up recovery (or another commit call) finishes without writing twice.
 * Committing a committed session changes nothing.
 */
export async function commit(deps: BulkImportDeps, session: SessionRow): Promise<void> {
  if (session.status === 'committed') return;
  if (session.status !== 'ready' && session.status !== 'committing') {
    throw conflict(
      `The bulk import session "${session.name}" is ${session.status}: perform it and wait until it is ready before committing.`,
    );
  }
  if (
    session.status === 'ready' &&
    !(await updateSession(deps.storage.db, session, { status: 'committing' }, ['ready'], now(deps)))
  ) {
    throw conflict(`The bulk import session "${session.name}" changed meanwhile; look at it and try again.`);
  }
  await finishCommit(deps, session);
}

/** Lands the rows (in a worker) and marks the session committed, then removes the files it no longer needs. */
async function finishCommit(deps: BulkImportDeps, session: SessionRow): Promise<void> {
  try {
    await commitInWorker(deps, session);
  } catch (err) {
    // Whatever the worker got to, the catalog shows what the file holds.
    const database = await findDatabase(deps.storage.db, session.account_id, session.database_name);
    if (database) await refreshCatalog(deps, database);
    // The thread holding the data transaction died (SQLite), or the connection holding it dropped
    // (PostgreSQL): either way the transaction rolled back, and committing again is safe.
    if (err instanceof WorkerCrashed || isStorageUnavailable(err)) {
      throw serviceUnavailable(
        `The commit of "${session.name}" was interrupted before its rows were saved; nothing was written. Commit it again.`,
      );
    }
    // A refusal (the table is gone, too many columns) leaves the session ready to fix and retry.
    if (err instanceof ApiError && err.status < 500) {
      await updateSession(deps.storage.db, session, { status: 'ready' }, ['committing'], now(deps));
    }
    throw err;
  }
  await updateSession(deps.storage.db, session, { status: 'committed' }, ['committing'], now(deps));
  // The rows are in the table now; the parts and staged rows are not needed any more.
  const staged = session.perform_token ? performFiles(session, session.perform_token) : null;
  await Promise.all([
    removeDir(deps, session.account_id, `${session.dir}/parts`),
    ...(staged
      ? [
          removeDir(deps, session.account_id, staged.stagedDir),
          removeFile(deps, session.account_id, staged.legacyStaged),
        ]
      : []),
  ]);
}

export async function deleteSession(deps: BulkImportDeps, session: SessionRow): Promise<void> {
  if (session.status === 'performing' || session.status === 'committing') {
    throw conflict(
      `The bulk import session "${session.name}" is ${session.status}; delete it once that has finished${session.job_id ? ` (job ${session.job_id})` : ''}.`,
    );
  }
  await deleteSessionRow(deps.storage.db, session);
  await removeDir(deps, session.account_id, session.dir);
}

/** At start-up: finishes commits a stopped process left half done (in workers; resolves when all have ended). */
export async function recoverCommits(deps: BulkImportDeps): Promise<void> {
  for (const session of await sessionsInState(deps.storage.db, 'committing')) {
    try {
      await finishCommit(deps, session);
      deps.logger.info('bulk import commit finished after a restart', { session: session.id });
    } catch (err) {
      deps.logger.error('bulk import commit could not be finished after a restart', {
        session: session.id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
}

export { requireSession };
