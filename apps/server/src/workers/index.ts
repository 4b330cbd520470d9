import { availableParallelism } from 'node:os';
import type { AppDeps } from '../platform/context';
import { type BackgroundWork, InProcessWork } from '../platform/inProcessWork';
import { WorkerPool } from '../platform/workerPool';
import type { WorkerSetup } from '../platform/workerRuntime';
import { tasks } from './tasks';

/**
 * The background workers of an app (`SVC_WORKERS`, default 6, or the cores when there are more). Workers start
 * on first use (or at boot, `prewarm`), and the pool grows while every worker is busy, so short writes
 * (a postback's group commit) find a free worker beside long ones (a commit, a build, an engine run)
 * rather than queueing behind them. Threads beyond the cores only share them; SQLite waits dominate.
 */
export function createWorkers(deps: AppDeps, size?: number): BackgroundWork {
  // On PostgreSQL the database does the heavy part; the server awaits it in its own process.
  if (deps.storage.file === null) return new InProcessWork(tasks, deps);
  const setup: WorkerSetup = { config: deps.config, controlFile: deps.storage.file };
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
