import type { TaskContext } from '../platform/workerRuntime';
import { duckQueryTasks } from './query/duckdb/pooled';
import { appendResultRows, type OutputArgs } from './resultOutput';

/** Background tasks of jobs (platform/work.ts): a query's rows appended to its result table, DuckDB query jobs. */
export const jobTasks = {
  'jobs.result-to-table': (ctx: TaskContext, a: OutputArgs) => appendResultRows(ctx.deps, a),
  ...duckQueryTasks,
};
