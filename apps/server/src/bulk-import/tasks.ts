import type { PartLimits } from '@svc/bulk-format';
import { dataLane, requireDatabase } from '../data';
import { work } from '../platform/work';
import type { TaskContext } from '../platform/workerRuntime';
import { landStagedRows } from './commit';
import { type BulkImportDeps, bulkImportOptions, type CrashPoint } from './options';
import { type PerformCounts, type PerformProgress, performSession } from './perform';
import type { SessionRow } from './sessions';

/** Bulk import's heavy work, run in background workers: perform (read every part) and commit (land the rows). */

interface PerformArgs {
  session: SessionRow;
  token: string;
  limits: PartLimits;
}

interface CommitArgs {
  session: SessionRow;
  limits: PartLimits;
}

export const bulkImportTasks = {
  'bulk-import.perform': (ctx: TaskContext, a: PerformArgs) =>
    performSession(ctx.deps, a.session, a.token, {
      limits: a.limits,
      signal: ctx.signal,
      onProgress: (p) => ctx.progress(p),
      crash: (point) => ctx.hook(point),
    }),
  'bulk-import.commit': (ctx: TaskContext, a: CommitArgs) =>
    landStagedRows(ctx.deps, a.session, a.limits, (point) => ctx.hook(point)),
};

const hookOf = (deps: BulkImportDeps) => {
  const crashPoint = bulkImportOptions(deps).crashPoint;
  return crashPoint ? (point: string) => crashPoint(point as CrashPoint) : undefined;
};

/** Performs a session in a worker; progress comes back to `onProgress`, a kill aborts it. */
export function performInWorker(
  deps: BulkImportDeps,
  session: SessionRow,
  token: string,
  signal: AbortSignal,
  onProgress: (p: PerformProgress) => void,
): Promise<PerformCounts> {
  const args: PerformArgs = { session, token, limits: bulkImportOptions(deps).limits };
  return work(deps).run<PerformCounts>('bulk-import.perform', args, {
    signal,
    onProgress: (p) => onProgress(p as PerformProgress),
    hook: hookOf(deps),
  });
}

/** Lands a performed session's rows in a worker, in the lane of the database's file. */
export async function commitInWorker(deps: BulkImportDeps, session: SessionRow): Promise<{ inserted: number }> {
  const database = await requireDatabase(deps.storage.db, session.account_id, session.database_name);
  const args: CommitArgs = { session, limits: bulkImportOptions(deps).limits };
  return work(deps).run('bulk-import.commit', args, {
    lane: dataLane(deps, database),
    hook: hookOf(deps),
  });
}
