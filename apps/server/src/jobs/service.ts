import { availableParallelism } from 'node:os';
import type { AppDeps } from '../platform/context';
import { queryJobKind } from './queryJob';
import { JobRunner } from './runner';

export interface JobServiceOptions {
  /** Jobs running at once (default: cores - 1, at least 2 so one long query cannot hold the queue, at most 4). */
  concurrency?: number;
  /** Seconds a query may run before it ends in error (default 3600). */
  queryTimeLimitSeconds?: number;
  /** Largest msgpack result a query may write (default 1 GiB). */
  maxResultBytes?: number;
}

/**
 * The job runner of an app with the query kind registered. Other kinds (bulk import) register on it;
 * `createApp` starts it, and stopping the app stops it.
 */
export function createJobService(deps: AppDeps, options: JobServiceOptions = {}): JobRunner {
  const runner = new JobRunner(deps, {
    concurrency: options.concurrency ?? Math.min(4, Math.max(2, availableParallelism() - 1)),
  });
  runner.register(
    queryJobKind(deps, {
      timeLimitSeconds: options.queryTimeLimitSeconds ?? 3600,
      maxResultBytes: options.maxResultBytes ?? 1024 * 1024 * 1024,
    }),
  );
  return runner;
}
