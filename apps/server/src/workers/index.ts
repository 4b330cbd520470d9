import { availableParallelism } from 'node:os';
import type { AppDeps } from '../platform/context';
import type { BackgroundWork } from '../platform/work';
import { WorkerPool } from '../platform/workerPool';
import type { WorkerSetup } from '../platform/workerRuntime';

/**
 * The background workers of an app (`SVC_WORKERS`, default 6, or the cores when there are more). Workers start
 * on first use (or at boot, `prewarm`), and the pool grows while every worker is busy, so short writes
 * (a postback's group commit) find a free worker beside long ones (a commit, a build, an engine run)
 * rather than queueing behind them. Threads beyond the cores only share them; SQLite waits dominate.
 */
export function createWorkers(deps: AppDeps, size?: number): BackgroundWork {
  // On either backend: on PostgreSQL the database does the writing, but decoding, laying out and deciding
  // are JavaScript, which must not share the request loop (decision 0030).
  const setup: WorkerSetup = { config: deps.config, storage: deps.storage.target };
  return new WorkerPool({
    entry: new URL('./entry.mjs', import.meta.url),
    workerData: setup,
    size: size ?? workerCount(process.env),
    logger: deps.logger,
    now: () => deps.clock.now().getTime(),
  });
}

function workerCount(env: NodeJS.ProcessEnv): number {
  const raw = env.SVC_WORKERS;
  if (raw === undefined || raw === '') return Math.max(6, availableParallelism());
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new Error(`SVC_WORKERS must be a whole number from 1 to 64, not "${raw}".`);
  return n;
}
