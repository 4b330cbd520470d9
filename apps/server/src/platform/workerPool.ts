import { Worker } from 'node:worker_threads';
import { ApiError } from './errors';
import type { Logger } from './logger';
import { isStorageUnavailable, StorageUnavailable } from './storage';

/**
 * Heavy work off the request loop: a pool of worker threads, each with its own SQLite connections, that
 * runs named tasks (registered in the worker, see `src/workers/`). The request loop only validates,
 * enqueues and answers.
 *
 * Lanes keep one writer per file: every task names the file it writes (its lane); while a lane has work
 * in a worker, the lane's next tasks go to that same worker, which runs them one after another. Tasks of
 * other lanes go to the least busy worker, and the pool grows up to its size while every worker is busy.
 */

/** What the main thread sends a worker. */
export type ToWorker =
  | { type: 'run'; id: number; task: string; args: unknown; lane: string; now: number; hooked: boolean }
  | { type: 'cancel'; id: number; reason: string }
  | { type: 'hook-reply'; id: number; error: string | null }
  /** The pool is closing: cancel every task, wait for them to end, release native resources, answer `closed`. */
  | { type: 'close' };

/** What a worker sends back. */
export type FromWorker =
  | { type: 'done'; id: number; ok: true; value: unknown }
  | { type: 'done'; id: number; ok: false; error: WireError }
  | { type: 'progress'; id: number; data: unknown }
  /** A test hook reached; `wait` (synchronous code) is set to 1 to go on, 2 to throw, 3 to exit the thread. */
  | { type: 'hook'; id: number; point: string; wait?: Int32Array }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> }
  /** The answer to `close`: nothing runs in the worker any more, and it can be terminated. */
  | { type: 'closed' };

/**
 * An error as it crosses the thread boundary: ApiErrors keep their status, label and details, and a database
 * that went away (a dropped connection, a shutdown) stays a StorageUnavailable.
 */
export interface WireError {
  message: string;
  name: string;
  api?: { status: number; error: string; details?: Record<string, unknown> };
}

export function toWireError(err: unknown): WireError {
  // A lost database keeps its meaning across threads, where a driver error's code would not cross.
  if (isStorageUnavailable(err)) {
    return { message: err instanceof Error ? err.message : String(err), name: 'StorageUnavailable' };
  }
  if (err instanceof ApiError) {
    return {
      message: err.message,
      name: err.name,
      api: { status: err.status, error: err.error, details: err.details },
    };
  }
  if (err instanceof Error) return { message: err.message, name: err.name };
  return { message: String(err), name: 'Error' };
}

export function fromWireError(w: WireError): Error {
  if (w.api) return new ApiError(w.api.status as ApiError['status'], w.api.error, w.message, w.api.details);
  if (w.name === 'StorageUnavailable') return new StorageUnavailable(w.message);
  const e = new Error(w.message);
  e.name = w.name;
  return e;
}

/**
 * How long a closing pool waits for a worker to end its tasks and release what it holds (`close`) before it
 * terminates the thread anyway (a task that ignores its cancel, or a thread held at a synchronous test hook).
 */
const CLOSE_GRACE_MS = 10_000;

/** A hook that throws an error with this message makes the worker exit there, as a crashed thread would. */
export const CRASH_WORKER = 'crash the worker here';

/**
 * The young generation of each worker's heap, in MB (V8 keeps a third of it per semi-space: 64 MB, against 16 MB by
 * default). A journey run, a commit or a build allocates millions of short-lived objects; with the default each
 * scavenge copies survivors that would have died a little later. At 1 M profiles this took 10–15 % off a busy
 * journey run (docs/benchmarks.md); memory is taken only as a worker allocates.
 */
const WORKER_YOUNG_GENERATION_MB = 192;

export interface RunOptions {
  /** The file the task writes; tasks of one lane never run at the same time. Default: a lane of its own. */
  lane?: string;
  /**
   * A file that only one thread of the process may open (a DuckDB file, decision 0031): every task naming it
   * goes to the worker that got it first, for as long as that worker lives, whatever its lane. Tasks of one
   * lane and one owner should name both, so the lane's order holds in the owner.
   */
  owner?: string;
  /** Aborting cancels the task: the worker sees it at its next check. */
  signal?: AbortSignal;
  /** Progress the task reports while it runs. */
  onProgress?: (data: unknown) => void;
  /**
   * Tests only: called at each hook point the task passes; a throw there fails the task at that point
   * as a crash would, and a promise holds the task there until it settles.
   */
  hook?: (point: string) => void | Promise<void>;
}

export interface WorkerPoolOptions {
  /** The worker's entry module (plain JavaScript that loads the TypeScript worker). */
  entry: URL;
  /** Passed to every worker as `workerData`. */
  workerData: unknown;
  /** The service's now, sent with each task: the worker's clock reads it (tests move time by hand). */
  now: () => number;
  /** Most workers at once. */
  size: number;
  logger: Logger;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  lane: string;
  onProgress?: (data: unknown) => void;
  hook?: (point: string) => void | Promise<void>;
  cleanup: () => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  lanes: Map<string, number>;
  /** Called when the worker answers `close`. */
  onClosed?: () => void;
}

/** Thrown to a task's caller when its worker died under it. */
export class WorkerCrashed extends Error {
  override name = 'WorkerCrashed';
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  /** The worker owning each pinned file (RunOptions.owner). */
  private readonly owners = new Map<string, Slot>();
  private sequence = 0;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Runs a task in a worker and resolves with its value; a worker's ApiError is rethrown as one. */
  run<R>(task: string, args: unknown, opts: RunOptions = {}): Promise<R> {
    if (this.closed) return Promise.reject(new Error('The server is stopping; the background work was not started.'));
    if (opts.signal?.aborted) return Promise.reject(opts.signal.reason);
    return this.send<R>(this.ownerOf(opts) ?? this.pick(opts.lane ?? `task:${this.sequence + 1}`), task, args, opts);
  }

  /** The worker pinned to the task's owner file, pinning one (by the lane's rule) on first use. */
  private ownerOf(opts: RunOptions): Slot | null {
    if (opts.owner === undefined) return null;
    let slot = this.owners.get(opts.owner);
    if (!slot) {
      slot = this.pick(opts.lane ?? `owner:${opts.owner}`);
      this.owners.set(opts.owner, slot);
    }
    return slot;
  }

  private send<R>(slot: Slot, task: string, args: unknown, opts: RunOptions): Promise<R> {
    const id = ++this.sequence;
    const lane = opts.lane ?? `task:${id}`;
    return new Promise<R>((resolve, reject) => {
      const onAbort = () => {
        const reason = opts.signal?.reason;
        slot.worker.postMessage({
          type: 'cancel',
          id,
          reason: reason instanceof Error ? reason.message : 'Cancelled.',
        } satisfies ToWorker);
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      slot.pending.set(id, {
        resolve: resolve as (v: unknown) => void,
        reject,
        lane,
        onProgress: opts.onProgress,
        hook: opts.hook,
        cleanup: () => opts.signal?.removeEventListener('abort', onAbort),
      });
      slot.lanes.set(lane, (slot.lanes.get(lane) ?? 0) + 1);
      slot.worker.ref();
      slot.worker.postMessage({
        type: 'run',
        id,
        task,
        args,
        lane,
        now: this.options.now(),
        hooked: opts.hook !== undefined,
      } satisfies ToWorker);
    });
  }

  /** Starts `count` workers now, so the first heavy work does not pay their start (a server at boot). */
  prewarm(count = 4): void {
    while (!this.closed && this.slots.length < Math.min(count, this.options.size)) {
      const slot = this.spawn();
      slot.worker.unref();
    }
  }

  /** Runs a task once in every worker that is running now (say, to close a file about to be deleted). */
  async broadcast(task: string, args: unknown): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.send(slot, task, args, {})));
  }

  /**
   * Ends every worker; tasks still running are rejected at once (a restart finds their work undone). Each
   * worker first cancels its tasks, waits for them and closes what native code holds (DuckDB files), then is
   * terminated: a thread torn down while a native call is in flight aborts the whole process (DuckDB's
   * "terminate called after throwing an instance of 'Napi::Error'").
   */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const slot of slots) this.fail(slot, new Error('The server is stopping.'));
    await Promise.all(slots.map((s) => this.stop(s)));
  }

  /** Asks the worker to close (`close`), waits for its answer, its exit or the grace time, then terminates it. */
  private async stop(slot: Slot): Promise<void> {
    await new Promise<void>((done) => {
      const timer = setTimeout(done, CLOSE_GRACE_MS);
      const end = () => {
        clearTimeout(timer);
        done();
      };
      slot.onClosed = end;
      slot.worker.once('exit', end);
      slot.worker.postMessage({ type: 'close' } satisfies ToWorker);
    });
    await slot.worker.terminate();
  }

  /** The worker that owns the lane, else the least busy one, growing the pool while all are busy. */
  private pick(lane: string): Slot {
    const owner = this.slots.find((s) => s.lanes.has(lane));
    if (owner) return owner;
    let best: Slot | undefined;
    for (const s of this.slots) if (!best || s.pending.size < best.pending.size) best = s;
    if (best && (best.pending.size === 0 || this.slots.length >= this.options.size)) return best;
    return this.spawn();
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.entry, {
      workerData: this.options.workerData,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const slot: Slot = { worker, pending: new Map(), lanes: new Map() };
    this.slots.push(slot);
    worker.on('message', (msg: FromWorker) => this.onMessage(slot, msg));
    worker.on('error', (err) => {
      this.options.logger.error('background worker failed', { error: err.name, message: err.message });
      this.remove(
        slot,
        new WorkerCrashed(`The background worker failed (${err.message}); the work was not completed.`),
      );
    });
    worker.on('exit', (code) => {
      this.remove(
        slot,
        new WorkerCrashed(`The background worker stopped (exit code ${code}); the work was not completed.`),
      );
    });
    return slot;
  }

  private onMessage(slot: Slot, msg: FromWorker): void {
    if (msg.type === 'log') {
      this.options.logger[msg.level](msg.msg, msg.fields);
      return;
    }
    if (msg.type === 'closed') {
      slot.onClosed?.();
      return;
    }
    const p = slot.pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'progress') {
      p.onProgress?.(msg.data);
      return;
    }
    if (msg.type === 'hook') {
      this.answerHook(slot, msg, p);
      return;
    }
    this.settle(slot, msg.id, p);
    if (msg.ok) p.resolve(msg.value);
    else p.reject(fromWireError(msg.error));
  }

  private answerHook(slot: Slot, msg: Extract<FromWorker, { type: 'hook' }>, p: Pending): void {
    const reply = (error: string | null) => {
      if (msg.wait) {
        Atomics.store(msg.wait, 0, error === null ? 1 : error === CRASH_WORKER ? 3 : 2);
        Atomics.notify(msg.wait, 0);
      } else slot.worker.postMessage({ type: 'hook-reply', id: msg.id, error } satisfies ToWorker);
    };
    Promise.resolve()
      .then(() => p.hook?.(msg.point))
      .then(
        () => reply(null),
        (e: unknown) => reply(e instanceof Error ? e.message : String(e)),
      );
  }

  private settle(slot: Slot, id: number, p: Pending): void {
    slot.pending.delete(id);
    p.cleanup();
    const left = (slot.lanes.get(p.lane) ?? 1) - 1;
    if (left > 0) slot.lanes.set(p.lane, left);
    else slot.lanes.delete(p.lane);
    // An idle worker must not keep the process (or a test run) alive on its own.
    if (slot.pending.size === 0) slot.worker.unref();
  }

  private fail(slot: Slot, err: Error): void {
    for (const [id, p] of [...slot.pending]) {
      this.settle(slot, id, p);
      p.reject(err);
    }
  }

  private remove(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    // Its files go to whichever worker the next task of each picks (which reopens them from their WAL).
    for (const [file, owner] of this.owners) if (owner === slot) this.owners.delete(file);
    this.fail(slot, err);
  }
}
