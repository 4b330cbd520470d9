import { z } from 'zod';
import type { JobKind, JobRow } from '../jobs';
import { parseStored } from '../platform/storedJson';
import { type BulkImportDeps, bulkImportOptions } from './options';
import type { PerformProgress } from './perform';
import { type SessionRow, sessionById, updateSession } from './sessions';
import { listDir, removeDir } from './sharedFiles';
import { performInWorker } from './tasks';

export const BULK_IMPORT_JOB = 'bulk_import';

/** What a perform job records in `jobs.params_json`. */
const performParams = z.object({ session_id: z.number(), session: z.string(), token: z.string() });
export type PerformParams = z.infer<typeof performParams>;

/**
 * The progress line a perform appends to its job's `debug.cmdout` (the console reads the last one):
 * `perform progress: 3/10 parts, 300000 records`.
 */
export const progressLine = (p: PerformProgress) =>
  `perform progress: ${p.parts_done}/${p.parts_total} parts, ${p.records} records`;

/**
 * Logs progress at most every `everyMs`, but always the first report and the one with every part done,
 * so the job's output starts with the total and ends with the whole count.
 */
export function throttledProgress(log: (line: string) => void, everyMs: number, now = () => performance.now()) {
  let last = Number.NEGATIVE_INFINITY;
  let logged = '';
  return (p: PerformProgress) => {
    const t = now();
    const final = p.parts_done === p.parts_total;
    if (!final && t - last < everyMs) return;
    const line = progressLine(p);
    if (line === logged) return;
    last = t;
    logged = line;
    log(line);
  };
}

const paramsOf = (job: JobRow) => parseStored(performParams, job.params_json ?? '{}', 'jobs.params_json');

/** Removes every perform folder of the session except the one of `keep` (the published perform). */
async function removeStalePerforms(deps: BulkImportDeps, session: SessionRow, keep: string | null) {
  for (const name of await listDir(deps, session.account_id, session.dir)) {
    if (name.startsWith('perform-') && name !== `perform-${keep}`) {
      await removeDir(deps, session.account_id, `${session.dir}/${name}`);
    }
  }
}

/**
 * The `bulk_import` job kind: runs a session's perform off the request, then publishes the counts and
 * the staged rows' token in one update. A perform that fails, is killed or is cut short by a restart
 * puts the session back to uploading (still frozen) with its parts untouched, so it can run again.
 */
export function bulkImportJobKind(deps: BulkImportDeps): JobKind {
  return {
    types: [BULK_IMPORT_JOB],
    async run(job, ctx) {
      const params = paramsOf(job);
      const session = await sessionById(deps.storage.db, job.account_id, params.session_id);
      if (session?.status !== 'performing' || session.job_id !== job.id) {
        throw new Error('The bulk import session was deleted or changed before its perform started.');
      }
      ctx.log(`performing bulk import session ${session.name}`);
      const onProgress = throttledProgress((line) => ctx.log(line), bulkImportOptions(deps).progressEveryMs);
      const counts = await performInWorker(deps, session, params.token, ctx.signal, onProgress);
      const published = await updateSession(
        deps.storage.db,
        session,
        { status: 'ready', perform_token: params.token, ...counts },
        ['performing'],
        deps.clock.now().getTime(),
        job.id,
      );
      if (!published) throw new Error('The bulk import session changed while it was being performed.');
      await removeStalePerforms(deps, session, params.token);
      ctx.log(
        `${counts.valid_records} valid and ${counts.error_records} error records in ${counts.valid_parts} valid and ${counts.error_parts} error parts`,
      );
      return { numRecords: counts.valid_records };
    },
    async onFailed(job) {
      try {
        const params = paramsOf(job);
        const session = await sessionById(deps.storage.db, job.account_id, params.session_id);
        if (!session) return;
        const reset = await updateSession(
          deps.storage.db,
          session,
          {
            status: 'uploading',
            perform_token: null,
            valid_parts: null,
            error_parts: null,
            valid_records: null,
            error_records: null,
          },
          ['performing'],
          deps.clock.now().getTime(),
          job.id,
        );
        if (reset) await removeStalePerforms(deps, session, null);
      } catch (err) {
        deps.logger.error('bulk import session not reset after its perform failed', {
          job: job.id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    },
  };
}
