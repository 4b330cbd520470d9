import type { AppDeps } from './context';
import type { RunOptions } from './workerPool';
import type { TaskContext, TaskTable } from './workerRuntime';

/**
 * What features call to run heavy work (platform/work.ts): worker threads on SQLite, the server itself on
 * PostgreSQL, where the heavy part is the database's own work and the server only awaits it.
 */
export interface BackgroundWork {
  run<R>(task: string, args: unknown, opts?: RunOptions): Promise<R>;
  /** Runs a task once in every worker (closing a file about to be deleted); once in-process. */
  broadcast(task: string, args: unknown): Promise<void>;
  prewarm(count?: number): void;
  close(): Promise<void>;
}

/**
 * Runs the same tasks as the worker threads, in the server's own process (the PostgreSQL backend): tasks of
 * one lane one after another, in the order they were asked for, others at once. Arguments and results are
 * copied as a worker's would be, so a task never shares objects with its caller.
 */
export class InProcessWork implements BackgroundWork {
  private readonly lanes = new Map<string, Promise<unknown>>();
  private sequence = 0;
  private closed = false;
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly tasks: TaskTable,
    private readonly deps: AppDeps,
  ) {}

  run<R>(name: string, args: unknown, opts: RunOptions = {}): Promise<R> {
    if (this.closed) return Promise.reject(new Error('The server is stopping; the background work was not started.'));
    if (opts.signal?.aborted) return Promise.reject(opts.signal.reason);
    const task = this.tasks[name];
    if (!task) return Promise.reject(new Error(`No background task is named "${name}".`));
    const lane = opts.lane ?? `task:${++this.sequence}`;
    const before = this.lanes.get(lane) ?? Promise.resolve();
    const result = before.then(async () => {
      opts.signal?.throwIfAborted();
      const ctx = this.context(opts);
      return structuredClone(await task(ctx, structuredClone(args) as never)) as R;
    });
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.lanes.set(lane, tail);
    this.running.add(tail);
    void tail.then(() => {
      this.running.delete(tail);
      if (this.lanes.get(lane) === tail) this.lanes.delete(lane);
    });
    return result;
  }

  private context(opts: RunOptions): TaskContext {
    const signal = opts.signal ?? new AbortController().signal;
    return {
      deps: this.deps,
      signal,
      progress: (data) => opts.onProgress?.(data),
      hook: async (point) => {
        const held = opts.hook?.(point);
        if (!(held instanceof Promise)) return;
        // A test holding the task here lets go once the task is cancelled (the app stopping), as a worker
        // thread terminated under it would; otherwise stopping would wait for it for ever.
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => reject(signal.reason);
          if (signal.aborted) return onAbort();
          signal.addEventListener('abort', onAbort, { once: true });
          held.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
        });
      },
      hookSync: (point) => {
        const held = opts.hook?.(point);
        if (held instanceof Promise) {
          throw new Error(`The test hook at ${point} waits, which only a worker thread can do.`);
        }
      },
    };
  }

  async broadcast(name: string, args: unknown): Promise<void> {
    await this.run(name, args);
  }

  prewarm(): void {}

  /** Stops taking work and waits for what runs to end (the database keeps what was committed). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
  }
}
