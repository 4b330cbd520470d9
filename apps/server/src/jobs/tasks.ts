import type { TaskContext } from '../platform/workerRuntime';
import { appendResultRows, type OutputArgs } from './resultOutput';

/** Background tasks of jobs (platform/work.ts): a query's rows appended to its result table. */
export const jobTasks = {
  'jobs.result-to-table': (ctx: TaskContext, a: OutputArgs) => appendResultRows(ctx.deps, a),
};
