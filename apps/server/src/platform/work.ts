import type { AppDeps } from './context';
import type { RunOptions } from './workerPool';

/** What features call to run heavy work: the worker threads of workerPool.ts, on either backend. */
export interface BackgroundWork {
  run<R>(task: string, args: unknown, opts?: RunOptions): Promise<R>;
  /** Runs a task once in every worker (closing a file about to be deleted). */
  broadcast(task: string, args: unknown): Promise<void>;
  prewarm(count?: number): void;
  close(): Promise<void>;
}

/**
 * The app's background worker pool, found from its dependencies. `createApp` attaches it; features reach
 * it here rather than through a global, so tests run as many apps as they like.
 */
const pools = new WeakMap<AppDeps, BackgroundWork>();

export function attachWork(deps: AppDeps, pool: BackgroundWork): void {
  pools.set(deps, pool);
}

export function work(deps: AppDeps): BackgroundWork {
  const pool = pools.get(deps);
  if (!pool) throw new Error('No background worker pool: heavy work runs from the server, not inside a worker.');
  return pool;
}

/** The app's pool, or null inside a worker thread (whose deps have none): there, the task is the owner. */
export function workIfAny(deps: AppDeps): BackgroundWork | null {
  return pools.get(deps) ?? null;
}

const startup = new WeakMap<AppDeps, Promise<unknown>[]>();

/** Start-up work (recovery after a crash) the app's `ready` waits for. */
export function atStartup(deps: AppDeps, promise: Promise<unknown>): void {
  const list = startup.get(deps) ?? [];
  list.push(promise);
  startup.set(deps, list);
}

/** Resolves when every start-up work registered so far has ended (each logs its own failure). */
export async function startupDone(deps: AppDeps): Promise<void> {
  await Promise.allSettled(startup.get(deps) ?? []);
}
