import type { AppDeps } from './context';
import type { RunOptions } from './workerPool';

/**
 * Every background task by name: its arguments and its result. The task registry (workers/tasks.ts) fills it
 * in by declaration merging, from the tasks it registers, so this layer names no feature while a call like
 * `run('bulk-import.commit', args)` is checked against the task's own signature at compile time (decision 0048).
 */
// biome-ignore lint/suspicious/noEmptyInterface: merged with the task registry's type in workers/tasks.ts.
export interface TaskMap {}

/** The arguments of a task `(ctx, args) => result`. */
type TaskArgs<T> = T extends (ctx: never, args: infer A) => unknown ? A : never;
/** What a task's caller gets: the task's result, once it has settled. */
type TaskResult<T> = T extends (...args: never[]) => infer R ? Awaited<R> : never;

/** What features call to run heavy work: the worker threads of workerPool.ts, on either backend. */
export interface BackgroundWork<M = TaskMap> {
  run<K extends keyof M & string>(task: K, args: TaskArgs<M[K]>, opts?: RunOptions): Promise<TaskResult<M[K]>>;
  /** Runs a task once in every worker (closing a file about to be deleted). */
  broadcast<K extends keyof M & string>(task: K, args: TaskArgs<M[K]>): Promise<void>;
  prewarm(count?: number): void;
  close(): Promise<void>;
}

/** The app's background worker pool (its services, built by compose.ts). */
export function work(deps: AppDeps): BackgroundWork {
  const pool = deps.services?.work;
  if (!pool) throw new Error('No background worker pool: heavy work runs from the server, not inside a worker.');
  return pool;
}

/** The app's pool, or null inside a worker thread (whose deps have none): there, the task is the owner. */
export function workIfAny(deps: AppDeps): BackgroundWork | null {
  return deps.services?.work ?? null;
}

/** Start-up work (recovery after a crash) the app's `ready` waits for. */
export function atStartup(deps: AppDeps, promise: Promise<unknown>): void {
  if (!deps.services) throw new Error('Start-up work belongs to an app: these deps have no services.');
  deps.services.startup.push(promise);
}

/** Resolves when every start-up work registered so far has ended (each logs its own failure). */
export async function startupDone(deps: AppDeps): Promise<void> {
  await Promise.allSettled(deps.services?.startup ?? []);
}
