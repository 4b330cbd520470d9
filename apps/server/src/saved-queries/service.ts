import { getUser } from '../accounts';
import { findDatabase } from '../data';
import { inspectQuery, type JobRunner, QueryRefused } from '../jobs';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, forbidden, unprocessable } from '../platform/errors';
import { transaction } from '../platform/storage';
import { copyName, savedQueryFields } from './fields';
import {
  countSavedQueries,
  deleteSavedQuery,
  insertSavedQuery,
  recordRun,
  requireSavedQuery,
  type SavedQueryFields,
  type SavedQueryRow,
  type SavedQueryView,
  saveSavedQuery,
} from './store';

/** What the saved query routes do: create, change, copy, delete and run, under the account's permissions. */

/** Saved queries one account may keep. */
const MAX_SAVED_QUERIES = 5000;

const now = (deps: AppDeps) => deps.clock.now().getTime();

/**
 * Whom the caller may change: administrators and the account owner every saved query, others their own;
 * everyone in the account runs any of them.
 */
export async function editorCheck(deps: AppDeps, p: Principal): Promise<(row: SavedQueryRow) => boolean> {
  const all = p.administrator || (await getUser(deps.storage.db, p.accountId, p.userId)).account_owner === 1;
  return (row) => all || (row.user_id !== null && row.user_id === p.userId);
}

async function requireEditor(deps: AppDeps, p: Principal, row: SavedQueryRow): Promise<void> {
  if (!(await editorCheck(deps, p))(row)) {
    throw forbidden(
      `Only administrators and its owner can change or delete the saved query "${row.name}". You can run it, or duplicate it and change the copy.`,
    );
  }
}

/** The database exists in the account and the query can run there, each a 400 naming its field. */
async function checkInAccount(deps: AppDeps, accountId: number, f: SavedQueryFields): Promise<void> {
  const database = await findDatabase(deps.storage.db, accountId, f.database_name);
  if (!database) {
    throw badRequest(`"database": there is no database named "${f.database_name.slice(0, 255)}" in this account.`, {
      field: 'database',
    });
  }
  try {
    await inspectQuery(deps, database, f.type, f.query);
  } catch (err) {
    if (err instanceof QueryRefused) throw badRequest(`"query": ${err.message}`, { field: 'query' });
    throw err;
  }
}

async function insertChecked(deps: AppDeps, p: Principal, f: SavedQueryFields): Promise<SavedQueryView> {
  await checkInAccount(deps, p.accountId, f);
  if ((await countSavedQueries(deps.storage.db, p.accountId)) >= MAX_SAVED_QUERIES) {
    throw unprocessable(`An account can keep at most ${MAX_SAVED_QUERIES} saved queries: delete ones no longer used.`);
  }
  const id = await insertSavedQuery(deps.storage.db, p.accountId, p.userId, f, now(deps));
  return requireSavedQuery(deps.storage.db, p.accountId, String(id));
}

export function createSavedQuery(deps: AppDeps, p: Principal, raw: Record<string, unknown>): Promise<SavedQueryView> {
  return insertChecked(deps, p, savedQueryFields(raw, null));
}

export async function updateSavedQuery(
  deps: AppDeps,
  p: Principal,
  id: string,
  raw: Record<string, unknown>,
): Promise<SavedQueryView> {
  const before = await requireSavedQuery(deps.storage.db, p.accountId, id);
  await requireEditor(deps, p, before);
  const fields = savedQueryFields(raw, before);
  await checkInAccount(deps, p.accountId, fields);
  await saveSavedQuery(deps.storage.db, before, fields, now(deps));
  return requireSavedQuery(deps.storage.db, p.accountId, id);
}

/** A copy owned by the caller, which anyone in the account may make: it starts without a last run. */
export async function duplicateSavedQuery(
  deps: AppDeps,
  p: Principal,
  id: string,
  raw: Record<string, unknown>,
): Promise<SavedQueryView> {
  const source = await requireSavedQuery(deps.storage.db, p.accountId, id);
  return insertChecked(deps, p, {
    name: copyName(raw, source),
    description: source.description,
    type: source.type,
    database_name: source.database_name,
    query: source.query,
  });
}

export async function removeSavedQuery(deps: AppDeps, p: Principal, id: string): Promise<SavedQueryView> {
  const row = await requireSavedQuery(deps.storage.db, p.accountId, id);
  await requireEditor(deps, p, row);
  await deleteSavedQuery(deps.storage.db, row);
  return row;
}

/** Issues the saved query as a job of the caller and records it as its last run, in one transaction. */
export async function runSavedQuery(
  deps: AppDeps,
  jobs: JobRunner,
  p: Principal,
  id: string,
): Promise<{ jobId: number; row: SavedQueryView }> {
  const row = await requireSavedQuery(deps.storage.db, p.accountId, id);
  await checkInAccount(deps, p.accountId, row);
  const at = now(deps);
  const job = await transaction(deps.storage, async (tx) => {
    const queued = await jobs.enqueue(
      { accountId: p.accountId, userId: p.userId, type: row.type, database: row.database_name, query: row.query },
      tx,
    );
    await recordRun(tx, row, queued.id, at);
    return queued;
  });
  jobs.wake();
  return { jobId: job.id, row: await requireSavedQuery(deps.storage.db, p.accountId, id) };
}
