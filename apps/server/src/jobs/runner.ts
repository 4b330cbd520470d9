import type { AppDeps } from '../platform/context';
import { type FairLimits, type FairState, fairOrder, nextFair, userKey } from './fairQueue';
import {
  appendCmdout,
  FINISHED,
  type Finish,
  finishJob,
  insertJob,
  type JobRow,
  type JobStatus,
  jobById,
  markRunning,
  type NewJob,
  queuedJobs,
  runningJobs,
} from './jobStore';

/** What a job kind gets while it runs. */
export interface JobContext {
  deps: AppDeps;
  /** Aborted when the job is killed or the server stops. */
  signal: AbortSignal;
  /** Appends a line of progress to the job's `debug.cmdout`. */
  log(line: string): void;
}

/** What a successful run leaves on the job. */
export type JobOutcome = Omit<Finish, 'status' | 'stderr'>;

/** A kind of job (query, bulk import perform…): the runner queues, starts, limits and ends its jobs. */
export interface JobKind {
  /** Values of `jobs.type` this kind runs. */
  types: readonly string[];
  /** Does the work; a thrown error's message becomes the job's `debug.stderr`. */
  run(job: JobRow, ctx: JobContext): Promise<JobOutcome>;
  /** Cleans up after a job that did not succeed (killed, failed, interrupted by a restart). */
  onFailed?(job: JobRow): void;
  /** Releases the kind's resources when the runner stops. */
  close?(): void;
}

export interface RunnerOptions extends FairLimits {
  /** Seconds any job may run before it ends in error (a query's own limit counts from when its process has it). */
  timeLimitSeconds: number;
}

interface Active {
  controller: AbortController;
  account: number;
  user: string;
}

type Waiter = { resolve: (status: JobStatus) => void; reject: (e: Error) => void };

/**
 * Runs queued jobs with bounded concurrency, sharing the slots fairly (fairQueue.ts): round-robin between
 * accounts and between each account's users, with per-account and per-user limits on running jobs. State
 * lives in the jobs table, so a restart loses nothing: at start, jobs left running end as `error` with the
 * reason in `debug.stderr`, and queued jobs run. Killing ends a job at once, frees its slot and aborts its
 * work; every job has a time limit.
 */
export class JobRunner {
  private readonly kinds = new Map<string, JobKind>();
  /** The running jobs, by job id. */
  private readonly active = new Map<number, Active>();
  /** When each account and user was last given a slot (a rising counter), for round-robin. */
  private readonly lastServedAccount = new Map<number, number>();
  private readonly lastServedUser = new Map<string, number>();
  private served = 0;
  private readonly settledWaiters = new Map<number, Waiter[]>();
  private readonly startedWaiters = new Map<number, Waiter[]>();
  private state: 'new' | 'running' | 'stopped' = 'new';

  constructor(
    private readonly deps: AppDeps,
    private readonly options: RunnerOptions,
  ) {}

  /** Adds a job kind; its queued jobs start on the next opportunity. */
  register(kind: JobKind): void {
    for (const type of kind.types) {
      if (this.kinds.has(type)) throw new Error(`A job kind for "${type}" is already registered.`);
      this.kinds.set(type, kind);
    }
    this.pump();
  }

  /** Ends jobs a previous process left running, then starts queued ones. */
  start(): void {
    if (this.state !== 'new') return;
    for (const job of runningJobs(this.deps.db)) {
      this.end(job, this.kinds.get(job.type), {
        status: 'error',
        stderr: 'The server restarted while this job was running; issue it again.',
      });
    }
    this.state = 'running';
    this.pump();
  }

  /** Stops starting jobs and aborts running ones without recording an end: the next start does that. */
  stop(): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    for (const { controller } of this.active.values()) controller.abort(new Error('The server is stopping.'));
    this.active.clear();
    for (const kind of new Set(this.kinds.values())) kind.close?.();
    const stopped = new Error('The job runner stopped.');
    for (const waiters of [...this.settledWaiters.values(), ...this.startedWaiters.values()]) {
      for (const w of waiters) w.reject(stopped);
    }
    this.settledWaiters.clear();
    this.startedWaiters.clear();
  }

  /** Queues a job of a registered kind and starts it if a slot is free. */
  enqueue(job: NewJob): JobRow {
    if (!this.kinds.has(job.type)) throw new Error(`No job kind runs "${job.type}" jobs.`);
    const row = insertJob(this.deps.db, job, this.now());
    this.pump();
    return row;
  }

  /** Kills a queued or running job of the account; returns its status before, or null if there is none. */
  kill(accountId: number, id: number): JobStatus | null {
    const job = jobById(this.deps.db, id);
    if (!job || job.account_id !== accountId) return null;
    if (FINISHED.includes(job.status)) return job.status;
    const active = this.active.get(id);
    this.end(job, this.kinds.get(job.type), { status: 'killed', stderr: 'Killed on request.' });
    // The slot is free at once, whenever the work notices the abort.
    this.active.delete(id);
    active?.controller.abort(new Error('Killed on request.'));
    this.pump();
    return job.status;
  }

  /** Resolves with the final status once the job has ended (at once if it already has). */
  whenSettled(id: number): Promise<JobStatus> {
    return this.wait(this.settledWaiters, id, (s) => FINISHED.includes(s));
  }

  /** Resolves once the job has left the queue (running or already ended). */
  whenStarted(id: number): Promise<JobStatus> {
    return this.wait(this.startedWaiters, id, (s) => s !== 'queued');
  }

  private wait(waiters: Map<number, Waiter[]>, id: number, reached: (s: JobStatus) => boolean): Promise<JobStatus> {
    const job = jobById(this.deps.db, id);
    if (!job) return Promise.reject(new Error(`There is no job ${id}.`));
    if (reached(job.status)) return Promise.resolve(job.status);
    if (this.state === 'stopped') return Promise.reject(new Error('The job runner stopped.'));
    return new Promise((resolve, reject) => {
      const list = waiters.get(id) ?? [];
      list.push({ resolve, reject });
      waiters.set(id, list);
    });
  }

  private notify(waiters: Map<number, Waiter[]>, id: number, status: JobStatus): void {
    const list = waiters.get(id);
    waiters.delete(id);
    for (const w of list ?? []) w.resolve(status);
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }

  /** The queued job's place in the fair order (1 starts next), or null when it is not queued. */
  queuePosition(id: number): number | null {
    const order = fairOrder(queuedJobs(this.deps.db, [...this.kinds.keys()]), this.fairState());
    const i = order.findIndex((j) => j.id === id);
    return i < 0 ? null : i + 1;
  }

  /** Every queued job's place in the fair order, by job id. */
  queuePositions(): Map<number, number> {
    const order = fairOrder(queuedJobs(this.deps.db, [...this.kinds.keys()]), this.fairState());
    return new Map(order.map((j, i) => [j.id, i + 1]));
  }

  private fairState(): FairState {
    const runningByAccount = new Map<number, number>();
    const runningByUser = new Map<string, number>();
    for (const a of this.active.values()) {
      runningByAccount.set(a.account, (runningByAccount.get(a.account) ?? 0) + 1);
      runningByUser.set(a.user, (runningByUser.get(a.user) ?? 0) + 1);
    }
    return {
      runningByAccount,
      runningByUser,
      lastServedAccount: this.lastServedAccount,
      lastServedUser: this.lastServedUser,
    };
  }

  private pump(): void {
    if (this.state !== 'running') return;
    while (this.active.size < this.options.slots) {
      const queued = queuedJobs(this.deps.db, [...this.kinds.keys()]);
      const pick = nextFair(queued, this.fairState(), this.options);
      const job = pick ? jobById(this.deps.db, pick.id) : null;
      if (!job) return;
      this.begin(job);
    }
  }

  private begin(job: JobRow): void {
    const kind = this.kinds.get(job.type) as JobKind;
    if (!markRunning(this.deps.db, job, this.now())) return;
    const running: JobRow = { ...job, status: 'running' };
    const controller = new AbortController();
    const user = userKey(job);
    this.active.set(job.id, { controller, account: job.account_id, user });
    this.served++;
    this.lastServedAccount.set(job.account_id, this.served);
    this.lastServedUser.set(user, this.served);
    const limit = this.options.timeLimitSeconds;
    const timer = setTimeout(() => {
      const message = `Stopped: time limit of ${limit} s exceeded.`;
      this.end(running, kind, { status: 'error', stderr: message });
      if (this.active.get(job.id)?.controller === controller) this.active.delete(job.id);
      controller.abort(new Error(message));
      this.pump();
    }, limit * 1000);
    timer.unref();
    this.notify(this.startedWaiters, job.id, 'running');
    const ctx: JobContext = {
      deps: this.deps,
      signal: controller.signal,
      log: (line) => appendCmdout(this.deps.db, job, `${line}\n`, this.now()),
    };
    Promise.resolve()
      .then(() => kind.run(running, ctx))
      .then(
        (outcome) => this.end(running, kind, { ...outcome, status: 'success' }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          // The message may quote customer data; it goes to the job's debug.stderr, not to the log.
          this.deps.logger.warn('job failed', {
            job: job.id,
            type: job.type,
            error: error instanceof Error ? error.name : 'Error',
          });
          this.end(running, kind, { status: 'error', stderr: message });
        },
      )
      .finally(() => {
        clearTimeout(timer);
        // Only this run's entry: stop() or a kill may have cleared it already.
        if (this.active.get(job.id)?.controller === controller) this.active.delete(job.id);
        this.pump();
      });
  }

  /** Records a job's end once; cleans up after anything but success; wakes whoever waits. */
  private end(job: JobRow, kind: JobKind | undefined, finish: Finish): void {
    if (this.state === 'stopped') return;
    const ended = finishJob(this.deps.db, job, finish, this.now());
    if (!ended) {
      // Ended meanwhile (killed): what a late success produced is not wanted.
      if (finish.status === 'success') kind?.onFailed?.(job);
      return;
    }
    if (finish.status !== 'success') kind?.onFailed?.(job);
    this.notify(this.startedWaiters, job.id, finish.status);
    this.notify(this.settledWaiters, job.id, finish.status);
  }
}
