import { AsyncLocalStorage } from 'node:async_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import type { Clock } from './clock';
import type { Config } from './config';
import type { AppDeps } from './context';
import type { Logger } from './logger';
import { openWorkerStorage, type StorageTarget } from './storage';
import { CRASH_WORKER, type FromWorker, type ToWorker, toWireError } from './workerPool';

/**
 * The inside of a pool worker (workerPool.ts): its own connections, a clock that reads each task's now,
 * a logger that forwards to the server's, and a dispatcher that runs one task of a lane at a time.
 */

/** What a task gets besides its arguments. */
export interface TaskContext {
  /** The worker's own dependencies: its own control connection, the server's config. */
  deps: AppDeps;
  /** Aborted when the caller cancels (a job kill); checked at the task's await points. */
  signal: AbortSignal;
  /** Sends progress to the caller. */
  progress(data: unknown): void;
  /** A test hook point in asynchronous code (see RunOptions.hook); nothing when no hook is set. */
  hook(point: string): Promise<void>;
  /** The same in synchronous code (inside a transaction): blocks this worker until the caller answers. */
  hookSync(point: string): void;
}

export type Task = (ctx: TaskContext, args: never) => unknown;
export type TaskTable = Record<string, Task>;

/** What the pool gives every worker. */
export interface WorkerSetup {
  config: Config;
  /** The server's storage (already migrated), which the worker opens with connections of its own. */
  storage: StorageTarget;
}

const taskNow = new AsyncLocalStorage<number>();

/** What the worker's module gives `serveTasks` besides its tasks. */
export interface WorkerHooks {
  /** Wires on the worker's dependencies what the app wires at start (hooks between features). */
  setup?: (deps: AppDeps) => void;
  /**
   * Releases what native code holds in this thread (open DuckDB files) once every task has ended, when the
   * pool closes: the thread must not be torn down while a native call is in flight.
   */
  release?: () => Promise<void>;
}

/** Starts the worker: call once from the worker's module with every task it runs. */
export function serveTasks(tasks: TaskTable, { setup, release }: WorkerHooks = {}): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs inside a worker thread only.');
  const init = workerData as WorkerSetup;
  const send = (msg: FromWorker) => port.postMessage(msg);
  const clock: Clock = { now: () => new Date(taskNow.getStore() ?? Date.now()) };
  const log = (level: 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) =>
    send({ type: 'log', level, msg, fields });
  const logger: Logger = { info: log('info'), warn: log('warn'), error: log('error') };
  const ready: Promise<AppDeps> = openWorkerStorage(init.storage).then((storage) => {
    const deps: AppDeps = { storage, config: init.config, clock, logger };
    setup?.(deps);
    return deps;
  });
  // Each task waits for it; when the storage cannot open, every task fails with the reason.
  ready.catch(() => {});
  const controllers = new Map<number, AbortController>();
  /** The tail of each lane's chain: a lane's tasks run one after another. */
  const lanes = new Map<string, Promise<unknown>>();
  const hookReplies = new Map<number, (error: string | null) => void>();

  const run = async (msg: Extract<ToWorker, { type: 'run' }>, controller: AbortController) => {
    const task = tasks[msg.task];
    if (!task) throw new Error(`No background task is named "${msg.task}".`);
    controller.signal.throwIfAborted();
    const deps = await ready;
    const ctx: TaskContext = {
      deps,
      signal: controller.signal,
      progress: (data) => send({ type: 'progress', id: msg.id, data }),
      hook: (point) => {
        if (!msg.hooked) return Promise.resolve();
        return new Promise<void>((resolve, reject) => {
          const onAbort = () => reject(controller.signal.reason);
          controller.signal.addEventListener('abort', onAbort, { once: true });
          hookReplies.set(msg.id, (error) => {
            controller.signal.removeEventListener('abort', onAbort);
            if (error === CRASH_WORKER) process.exit(70);
            if (error === null) resolve();
            else reject(new Error(error));
          });
          send({ type: 'hook', id: msg.id, point });
        });
      },
      hookSync: (point) => {
        if (!msg.hooked) return;
        const wait = new Int32Array(new SharedArrayBuffer(4));
        send({ type: 'hook', id: msg.id, point, wait });
        Atomics.wait(wait, 0, 0);
        // Exiting inside a transaction leaves it uncommitted, exactly as a thread that died there.
        if (Atomics.load(wait, 0) === 3) process.exit(70);
        if (Atomics.load(wait, 0) === 2) throw new Error(`Stopped at ${point} by a test hook.`);
      },
    };
    return taskNow.run(msg.now, () => task(ctx, msg.args as never));
  };

  /** Cancels every task, waits for all of them to end, then releases the thread's native resources. */
  const close = async () => {
    for (const controller of controllers.values()) controller.abort(new Error('The server is stopping.'));
    await Promise.allSettled([...lanes.values()]);
    await release?.().catch((err: unknown) => logger.error('closing the worker failed', { error: String(err) }));
    send({ type: 'closed' });
  };

  port.on('message', (msg: ToWorker) => {
    if (msg.type === 'close') {
      void close();
      return;
    }
    if (msg.type === 'cancel') {
      controllers.get(msg.id)?.abort(new Error(msg.reason));
      return;
    }
    if (msg.type === 'hook-reply') {
      const reply = hookReplies.get(msg.id);
      hookReplies.delete(msg.id);
      reply?.(msg.error);
      return;
    }
    const controller = new AbortController();
    controllers.set(msg.id, controller);
    const before = lanes.get(msg.lane) ?? Promise.resolve();
    const result = before.then(() => run(msg, controller));
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    lanes.set(msg.lane, tail);
    result.then(
      (value) => send({ type: 'done', id: msg.id, ok: true, value }),
      (err: unknown) => send({ type: 'done', id: msg.id, ok: false, error: toWireError(err) }),
    );
    void tail.then(() => {
      controllers.delete(msg.id);
      if (lanes.get(msg.lane) === tail) lanes.delete(msg.lane);
    });
  });
}
