import { availableParallelism } from 'node:os';
import type { AppDeps } from '../platform/context';
import { WorkerPool } from '../platform/workerPool';
import type { WorkerSetup } from '../platform/workerRuntime';

/**
 * The background workers of an app (`SVC_WORKERS`, default: the cores, at least 2, at most 4). Workers start
 * on first use, so an app that does no heavy work starts none.
 */
export function createWorkers(deps: AppDeps, size?: number): WorkerPool {
  const setup: WorkerSetup = { config: deps.config, controlFile: deps.db.name };
  return new WorkerPool({
    entry: new URL('./entry.mjs', import.meta.url),
    workerData: setup,
    size: size ?? workerCount(process.env),
    logger: deps.logger,
    now: () => deps.clock.now().getTime(),
  });
}

export function workerCount(env: NodeJS.ProcessEnv): number {
  const raw = env.SVC_WORKERS;
  if (raw === undefined || raw === '') return Math.min(4, Math.max(2, availableParallelism()));
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new Error(`SVC_WORKERS must be a whole number from 1 to 64, not "${raw}".`);
  return n;
}
