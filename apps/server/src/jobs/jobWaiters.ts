import { FINISHED, type JobStatus } from './jobStore';

type Waiter = { resolve: (status: JobStatus) => void; reject: (e: Error) => void };

/**
 * Who waits for a job to leave the queue or to end (runner.ts `whenStarted`, `whenSettled`), told by the runner
 * when it sees a job's status change, here or (polled) on another node.
 */
export class JobWaiters {
  private readonly settled = new Map<number, Waiter[]>();
  private readonly started = new Map<number, Waiter[]>();

  /** `statusOf`: the job's status as stored, or null when there is no such job. */
  constructor(private readonly statusOf: (id: number) => Promise<JobStatus | null>) {}

  /** The jobs somebody waits for. */
  ids(): number[] {
    return [...this.settled.keys(), ...this.started.keys()];
  }

  /** Resolves with the final status once the job has ended (at once if it already has). */
  whenSettled(id: number): Promise<JobStatus> {
    return this.wait(this.settled, id, (s) => FINISHED.includes(s));
  }

  /** Resolves once the job has left the queue (running or already ended). */
  whenStarted(id: number): Promise<JobStatus> {
    return this.wait(this.started, id, (s) => s !== 'queued');
  }

  /** Tells the job's waiters its status: those waiting for its start once it left the queue, for its end once ended. */
  reached(id: number, status: JobStatus): void {
    if (FINISHED.includes(status)) this.notify(this.settled, id, status);
    if (status !== 'queued') this.notify(this.started, id, status);
  }

  /** Fails every wait (the runner stopped). */
  rejectAll(error: Error): void {
    for (const waiters of [...this.settled.values(), ...this.started.values()]) {
      for (const w of waiters) w.reject(error);
    }
    this.settled.clear();
    this.started.clear();
  }

  private wait(waiters: Map<number, Waiter[]>, id: number, reached: (s: JobStatus) => boolean): Promise<JobStatus> {
    return new Promise((resolve, reject) => {
      // Listen first, then look: an end between the two is not missed.
      const waiter = { resolve, reject };
      const list = waiters.get(id) ?? [];
      list.push(waiter);
      waiters.set(id, list);
      const forget = () => {
        const left = (waiters.get(id) ?? []).filter((w) => w !== waiter);
        if (left.length > 0) waiters.set(id, left);
        else waiters.delete(id);
      };
      this.statusOf(id).then(
        (status) => {
          if (status === null) {
            forget();
            reject(new Error(`There is no job ${id}.`));
          } else if (reached(status)) {
            forget();
            resolve(status);
          }
        },
        (err: unknown) => {
          forget();
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  private notify(waiters: Map<number, Waiter[]>, id: number, status: JobStatus): void {
    const list = waiters.get(id);
    waiters.delete(id);
    for (const w of list ?? []) w.resolve(status);
  }
}
