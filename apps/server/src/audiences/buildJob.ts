import { z } from 'zod';
import type { JobKind, JobRow, JobRunner } from '../jobs';
import type { AppDeps } from '../platform/context';
import { parseStored } from '../platform/storedJson';
import { definitionOf, type ParentSegmentRow, parentSegmentRow, setBuildJob } from './store';
import { buildInWorker } from './tasks';

/**
 * The `audience_build` job kind: builds a parent segment's profile file (matrix.ts). Jobs show in
 * `/v3/job/list` like any other (database = the master database); `num_records` is the population.
 */
const AUDIENCE_BUILD_JOB = 'audience_build';

const buildParams = z.object({ parent_segment_id: z.number() });
const paramsOf = (job: JobRow) => parseStored(buildParams, job.params_json ?? '{}', 'jobs.params_json');

export function audienceBuildJobKind(deps: AppDeps): JobKind {
  return {
    types: [AUDIENCE_BUILD_JOB],
    async run(job, ctx) {
      const row = await parentSegmentRow(deps.storage.db, job.account_id, paramsOf(job).parent_segment_id);
      if (!row) throw new Error('The parent segment was deleted before its build started.');
      ctx.log(`building the profiles of parent segment ${row.id} (${row.name})`);
      const population = await buildInWorker(deps, row, job.id, ctx.signal);
      ctx.log(`${population} profiles`);
      return { numRecords: population };
    },
  };
}

/** Queues a build of the parent segment's current definition; a newer build supersedes older ones. */
export async function startBuild(
  deps: AppDeps,
  jobs: JobRunner,
  row: ParentSegmentRow,
  userId: number,
): Promise<number> {
  const job = await jobs.enqueue({
    accountId: row.account_id,
    userId,
    type: AUDIENCE_BUILD_JOB,
    database: definitionOf(row).master.database,
    query: null,
    params: { parent_segment_id: row.id },
  });
  await setBuildJob(deps.storage.db, row, job.id);
  return job.id;
}
