import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { QueryOutcome, QueryTask } from './executeQuery';
import type { WorkerReply, WorkerRequest } from './queryWorker';

/** A query that ran and failed (bad SQL, a function error): its message is for the person who wrote it. */
export class QueryFailed extends Error {
  override name = 'QueryFailed';
}

const ENTRY = fileURLToPath(new URL('./queryProcess.mjs', import.meta.url));

/**
 * Query processes, reused between jobs so a job does not pay a process start. A job that is killed or
 * runs out of time takes its process with it (SIGKILL stops SQLite even inside one long step, which a
 * worker thread's terminate() cannot); the next job starts a fresh one.
 */
export class QueryPool {
  private readonly idle: ChildProcess[] = [];
  private readonly all = new Set<ChildProcess>();
  private closed = false;
  private sequence = 0;

  /**
   * Runs a task in an idle (or new) process. The time limit counts from when the process has the task,
   * so starting a process is not charged to the query.
   */
  async run(task: QueryTask, signal: AbortSignal, timeLimitSeconds: number): Promise<QueryOutcome> {
    signal.throwIfAborted();
    let reused = this.idle.pop();
    while (reused && (!reused.connected || reused.exitCode !== null)) reused = this.idle.pop();
    const child = reused ?? (await this.spawn());
    if (signal.aborted) {
      this.kill(child);
      signal.throwIfAborted();
    }
    const id = ++this.sequence;
    child.ref();
    child.channel?.ref();
    return new Promise<QueryOutcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        done();
        this.kill(child);
        reject(new QueryFailed(`Stopped: time limit of ${timeLimitSeconds} s exceeded.`));
      }, timeLimitSeconds * 1000);
      const done = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        signal.removeEventListener('abort', onAbort);
      };
      const onMessage = (reply: WorkerReply) => {
        if (!('id' in reply) || reply.id !== id) return;
        done();
        this.release(child);
        if (reply.ok) resolve(reply.outcome);
        else reject(new QueryFailed(reply.message));
      };
      const onExit = (code: number | null, sig: string | null) => {
        done();
        this.all.delete(child);
        reject(
          new Error(`The query process stopped (${sig ?? `exit code ${code}`}); its output is in the server log.`),
        );
      };
      const onAbort = () => {
        done();
        this.kill(child);
        reject(signal.reason);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      signal.addEventListener('abort', onAbort, { once: true });
      child.send({ id, task } satisfies WorkerRequest);
    });
  }

  /** Stops every process, busy or idle. */
  close(): void {
    this.closed = true;
    for (const child of this.all) child.kill('SIGKILL');
    this.all.clear();
    this.idle.length = 0;
  }

  private spawn(): Promise<ChildProcess> {
    if (this.closed) return Promise.reject(new Error('The query pool is closed.'));
    // stderr goes to the server's: a crash of the process is visible in its log.
    const child = fork(ENTRY, [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.all.add(child);
    // An idle process that dies (out of memory, killed from outside) leaves the pool.
    child.once('exit', () => {
      this.all.delete(child);
      const i = this.idle.indexOf(child);
      if (i >= 0) this.idle.splice(i, 1);
    });
    return new Promise((resolve, reject) => {
      const onReady = (reply: WorkerReply) => {
        if (!('ready' in reply)) return;
        child.off('message', onReady);
        child.off('exit', onExit);
        resolve(child);
      };
      const onExit = (code: number | null) => {
        this.all.delete(child);
        reject(new Error(`The query process could not start (exit code ${code}); its output is in the server log.`));
      };
      child.on('message', onReady);
      child.once('exit', onExit);
      child.once('error', (e) => reject(e));
    });
  }

  private release(child: ChildProcess): void {
    if (this.closed || !this.all.has(child)) return;
    // An idle process must not keep the server (or a test run) alive on its own.
    child.unref();
    child.channel?.unref();
    this.idle.push(child);
  }

  private kill(child: ChildProcess): void {
    this.all.delete(child);
    child.kill('SIGKILL');
  }
}
