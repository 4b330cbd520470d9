import { readdir } from 'node:fs/promises';
import type { JobRow } from '../jobs/jobStore';
import type { JobKind } from '../jobs/runner';
import { abs, removeDir } from './files';
import type { BulkImportDeps } from './options';
import { performSession } from './perform';
import { type SessionRow, sessionById, updateSession } from './sessions';

export const BULK_IMPORT_JOB = 'bulk_import';

/** What a perform job records in `jobs.params_json`. */
export interface PerformParams {
  session_id: number;
  session: string;
  token: string;
}

const paramsOf = (job: JobRow) => JSON.parse(job.params_json ?? '{}') as PerformParams;

/** Removes every perform folder of the session except the one of `keep` (the published perform). */
export async function removeStalePerforms(deps: BulkImportDeps, session: SessionRow, keep: string | null) {
  const names = await readdir(abs(deps.config.dataDir, session.dir)).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith('perform-') && name !== `perform-${keep}`) {
      await removeDir(deps.config.dataDir, `${session.dir}/${name}`);
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
      const session = sessionById(deps.db, job.account_id, params.session_id);
      if (session?.status !== 'performing' || session.job_id !== job.id) {
        throw new Error('The bulk import session was deleted or changed before its perform started.');
      }
      ctx.log(`performing bulk import session ${session.name}`);
      const counts = await performSession(deps, session, params.token, ctx.signal);
      const published = updateSession(
        deps.db,
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
    onFailed(job) {
      const params = paramsOf(job);
      const session = sessionById(deps.db, job.account_id, params.session_id);
      if (!session) return;
      const reset = updateSession(
        deps.db,
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
      if (reset) void removeStalePerforms(deps, session, null);
    },
  };
}
