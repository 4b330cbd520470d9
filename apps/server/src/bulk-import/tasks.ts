import type { PartLimits } from '@svc/bulk-format';
import { dataTaskOptions, requireDatabase } from '../data';
import { work } from '../platform/work';
import type { TaskContext } from '../platform/workerRuntime';
import { landStagedRows } from './commit';
import { performFiles } from './files';
import { type BulkImportDeps, bulkImportOptions, type CrashPoint } from './options';
import { finishPerform, type PartResult, type PerformCounts, type PerformProgress, performPart } from './perform';
import { listParts, type PartRow, type SessionRow } from './sessions';
import { removeDir } from './sharedFiles';

/**
 * Bulk import's heavy work, run in background workers: perform (each part read in a task of its own, several at
 * once, then one task to finish) and commit (land the rows).
 */

interface PartArgs {
  session: SessionRow;
  token: string;
  part: Pick<PartRow, 'name' | 'file'>;
  index: number;
  limits: PartLimits;
}

interface FinishArgs {
  session: SessionRow;
  token: string;
  results: PartResult[];
}

interface CommitArgs {
  session: SessionRow;
  limits: PartLimits;
}

export const bulkImportTasks = {
  'bulk-import.perform-part': (ctx: TaskContext, a: PartArgs) =>
    performPart(ctx.deps, a.session, a.token, a.part, a.index, {
      limits: a.limits,
      signal: ctx.signal,
      onRecords: (n) => ctx.progress(n),
      crash: (point) => ctx.hook(point),
    }),
  'bulk-import.perform-finish': (ctx: TaskContext, a: FinishArgs) =>
    finishPerform(ctx.deps, a.session, a.token, a.results),
  'bulk-import.commit': (ctx: TaskContext, a: CommitArgs) =>
    landStagedRows(ctx.deps, a.session, a.limits, (point) => ctx.hook(point)),
};

const hookOf = (deps: BulkImportDeps) => {
  const crashPoint = bulkImportOptions(deps).crashPoint;
  return crashPoint ? (point: string) => crashPoint(point as CrashPoint) : undefined;
};

/**
 * Performs a session in workers: its parts in parallel, then the finish (error file, manifest). Progress comes
 * back to `onProgress`; a kill, or one part failing, stops the others and removes what the perform wrote.
 */
export async function performInWorker(
  deps: BulkImportDeps,
  session: SessionRow,
  token: string,
  signal: AbortSignal,
  onProgress: (p: PerformProgress) => void,
): Promise<PerformCounts> {
  const parts = await listParts(deps.storage.db, session);
  const { limits, partsAtOnce } = bulkImportOptions(deps);
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const records = parts.map(() => 0);
  let done = 0;
  const report = () =>
    onProgress({ parts_done: done, parts_total: parts.length, records: records.reduce((n, r) => n + r, 0) });
  const results: PartResult[] = [];
  let next = 0;
  const reader = async () => {
    for (let index = next++; index < parts.length && !stop.signal.aborted; index = next++) {
      const { name, file } = parts[index] as PartRow;
      const args: PartArgs = { session, token, part: { name, file }, index, limits };
      const result = await work(deps).run('bulk-import.perform-part', args, {
        signal: stop.signal,
        onProgress: (n) => {
          records[index] = n as number;
          report();
        },
        hook: hookOf(deps),
      });
      results.push(result);
      done++;
      report();
    }
  };
  try {
    report();
    const readers = Array.from({ length: Math.min(partsAtOnce, parts.length) }, () =>
      reader().catch((err: unknown) => {
        // The other parts stop at their next batch; the first failure is the one reported.
        stop.abort(err);
        throw err;
      }),
    );
    const settled = await Promise.allSettled(readers);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    signal.throwIfAborted();
    const finish: FinishArgs = { session, token, results };
    return await work(deps).run('bulk-import.perform-finish', finish, { signal });
  } catch (err) {
    await removeDir(deps, session.account_id, performFiles(session, token).dir).catch(() => undefined);
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Lands a performed session's rows in a worker, in the lane of the database's file. */
export async function commitInWorker(deps: BulkImportDeps, session: SessionRow): Promise<{ inserted: number }> {
  const database = await requireDatabase(deps.storage.db, session.account_id, session.database_name);
  const args: CommitArgs = { session, limits: bulkImportOptions(deps).limits };
  return work(deps).run('bulk-import.commit', args, {
    ...dataTaskOptions(deps, database),
    hook: hookOf(deps),
  });
}
