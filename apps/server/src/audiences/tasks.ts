import type { SegmentRule } from '@svc/contracts';
import { derivedSets } from '../data';
import type { AppDeps } from '../platform/context';
import { work } from '../platform/work';
import type { TaskContext } from '../platform/workerRuntime';
import { countProfiles, sampleAndCount } from './evaluate';
import { buildProfiles } from './matrix';
import type { ParentSegmentRow } from './store';

/**
 * The audiences' heavy work, run as background tasks (platform/work.ts: worker threads with their own
 * connections on SQLite, the server process awaiting PostgreSQL on PostgreSQL): building a parent
 * segment's profiles, and counting or sampling the profiles a rule selects (a scan of every profile).
 */

interface BuildArgs {
  row: ParentSegmentRow;
  jobId: number;
}

interface RuleArgs {
  parent: ParentSegmentRow;
  rule: SegmentRule;
  at: number;
  limit?: number;
}

export const audienceTasks = {
  'audiences.build': (ctx: TaskContext, a: BuildArgs) => buildProfiles(ctx.deps, a.row, a.jobId, ctx.signal),
  'audiences.count': (ctx: TaskContext, a: RuleArgs) => countProfiles(ctx.deps, a.parent, a.rule, new Date(a.at)),
  'audiences.sample': (ctx: TaskContext, a: RuleArgs) =>
    sampleAndCount(ctx.deps, a.parent, a.rule, new Date(a.at), a.limit ?? 20),
};

/**
 * Builds a parent segment's profiles in a worker; a job kill cancels it between two steps. On DuckDB the build
 * is led from here instead: it sends the copies of its sources to the workers owning their files, and its
 * statements run on DuckDB's own threads (derived.ts `buildsFromServer`, decision 0039).
 */
export function buildInWorker(deps: AppDeps, row: ParentSegmentRow, jobId: number, signal: AbortSignal) {
  if (derivedSets(deps).buildsFromServer) return buildProfiles(deps, row, jobId, signal);
  return work(deps).run('audiences.build', { row, jobId } satisfies BuildArgs, { signal });
}

/** How many profiles the rule selects at `at`, counted in a worker. */
export function countInWorker(deps: AppDeps, parent: ParentSegmentRow, rule: SegmentRule, at: Date) {
  return work(deps).run('audiences.count', { parent, rule, at: at.getTime() } satisfies RuleArgs);
}

/** Up to `limit` matching profiles and the count, in a worker. */
export function sampleInWorker(deps: AppDeps, parent: ParentSegmentRow, rule: SegmentRule, at: Date, limit: number) {
  return work(deps).run('audiences.sample', {
    parent,
    rule,
    at: at.getTime(),
    limit,
  } satisfies RuleArgs);
}
