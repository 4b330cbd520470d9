import { lockAccountRow } from '../accounts';
import type { AppDeps } from '../platform/context';
import { type Executor, transaction } from '../platform/storage';
import { type FairLimits, type FairState, fairOrder, mayStart, nextFair, userKey } from './fairQueue';
import type { JobContext, JobIssuer, JobKind } from './jobKind';
import {
  appendCmdout,
  claimJob,
  FINISHED,
  type Finish,
  finishJob,
  insertJob,
  type JobRow,
  type JobStatus,
  jobById,
  jobStates,
  type NewJob,
  queuedJobs,
  requestKill,
  runningCounts,
  runningJobs,
} from './jobStore';
import { JobWaiters } from './jobWaiters';

export interface RunnerOptions extends FairLimits {
  /** Seconds any job may run before it ends in error (a query's own limit counts from when its process has it). */
  timeLimitSeconds: number;
  /**
   * This node's name, recorded on the jobs it claims (`jobs.runner`): its restart ends only its own jobs
   * left running. Stable across restarts of the node (`SVC_NODE_ID`, default the host name).
   */
  nodeId: string;
  /** How often the runner looks for work, kills and ends of other nodes (ms, default 1000). */
  pollMs?: number;
}

interface Active {
  controller: AbortController;
  account: number;
  user: string;
}

/**
 * Runs queued jobs with bounded concurrency, sharing the slots fairly (fairQueue.ts): round-robin between
 * accounts and between each account's users, with per-account and per-user limits on running jobs, counted
 * in the database over every node. State lives in the jobs table, so a restart loses nothing: at start, the
 * jobs this node left running end as `error` with the reason in `debug.stderr`, and queued jobs run.
 *
 * Several nodes may share one database: a queued job is claimed by exactly one of them (jobStore.ts
 * `claimJob`), each node has its own slots, and a node polls for work queued elsewhere, for kills asked of
 * its jobs on another node (`kill_requested_at`), and for ends of jobs it waits for. Killing ends a job at
 * once, frees its slot and aborts its work; every job has a time limit.
 */
export class JobRunner {
  private readonly kinds = new Map<string, JobKind>();
  private readonly issuers = new Map<string, JobIssuer>();
  /** The running jobs of this node, by job id. */
  private readonly active = new Map<number, Active>();
  /** When each account and user was last given a slot (a rising counter), for round-robin. */
  private readonly lastServedAccount = new Map<number, number>();
  private readonly lastServedUser = new Map<string, number>();
  private served = 0;
  private readonly waiters = new JobWaiters(async (id) => (await jobById(this.db, id))?.status ?? null);
  private state: 'new' | 'running' | 'stopped' = 'new';
  private pumping = false;
  private pumpAgain = false;
  private poller: NodeJS.Timeout | null = null;
  /** Each job's pending cmdout appends, so lines land in order. */
  private readonly logs = new Map<number, Promise<void>>();

  constructor(
    private readonly deps: AppDeps,
    private readonly options: RunnerOptions,
  ) {}

  /** This node's name on the jobs it runs. */
  get nodeId(): string {
    return this.options.nodeId;
  }

  private get db() {
    return this.deps.storage.db;
  }

  /** Adds a job kind; its queued jobs start on the next opportunity. */
  register(kind: JobKind): void {
    for (const type of kind.types) {
      if (this.kinds.has(type)) throw new Error(`A job kind for "${type}" is already registered.`);
      this.kinds.set(type, kind);
    }
    this.pump();
  }

  /** Lets `POST /v3/job/issue/<type>/<db>` issue jobs of a registered kind other than queries. */
  registerIssuer(type: string, issuer: JobIssuer): void {
    this.issuers.set(type, issuer);
  }

  issuer(type: string): JobIssuer | undefined {
    return this.issuers.get(type);
  }

  /** Ends the jobs this node's previous process left running, then starts queued ones and polls. */
  async start(): Promise<void> {
    if (this.state !== 'new') return;
    for (const job of await runningJobs(this.db, this.nodeId)) {
      await this.end(job, this.kinds.get(job.type), {
        status: 'error',
        stderr: 'The server restarted while this job was running; issue it again.',
      });
    }
    if (this.state !== 'new') return;
    this.state = 'running';
    this.poller = setInterval(() => {
      this.poll().catch((err) => this.failed('job poll', err));
    }, this.options.pollMs ?? 1000);
    this.poller.unref();
    this.pump();
  }

  /** Stops starting jobs and aborts running ones without recording an end: the next start does that. */
  stop(): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    for (const { controller } of this.active.values()) controller.abort(new Error('The server is stopping.'));
    this.active.clear();
    for (const kind of new Set(this.kinds.values())) kind.close?.();
    this.waiters.rejectAll(new Error('The job runner stopped.'));
  }

  /**
   * Queues a job of a registered kind and starts it if a slot is free. Inside a caller's transaction `ex`,
   * the job can start once it commits (at the latest on the next poll).
   */
  async enqueue(job: NewJob, ex: Executor = this.db): Promise<JobRow> {
    if (!this.kinds.has(job.type)) throw new Error(`No job kind runs "${job.type}" jobs.`);
    const row = await insertJob(ex, job, this.now());
    this.pump();
    return row;
  }

  /** Starts queued jobs where slots are free: after a caller's transaction that queued some has committed. */
  wake(): void {
    this.pump();
  }

  /**
   * Kills a queued or running job of the account; returns its status before, or null if there is none. A
   * job running on another node is marked for it to kill (it polls); it ends there within a poll.
   */
  async kill(accountId: number, id: number): Promise<JobStatus | null> {
    const job = await jobById(this.db, id);
    if (!job || job.account_id !== accountId) return null;
    if (FINISHED.includes(job.status)) return job.status;
    if (job.status === 'running' && !this.active.has(id) && job.runner !== null && job.runner !== this.nodeId) {
      await requestKill(this.db, id, this.now());
      return job.status;
    }
    await this.killHere(job);
    return job.status;
  }

  /** Ends a job as killed and aborts its work if it runs here. */
  private async killHere(job: JobRow): Promise<void> {
    const active = this.active.get(job.id);
    // The slot is free at once, whenever the work notices the abort.
    this.active.delete(job.id);
    active?.controller.abort(new Error('Killed on request.'));
    await this.end(job, this.kinds.get(job.type), { status: 'killed', stderr: 'Killed on request.' });
    this.pump();
  }

  /** Resolves with the final status once the job has ended (at once if it already has). */
  whenSettled(id: number): Promise<JobStatus> {
    if (this.state === 'stopped') return Promise.reject(new Error('The job runner stopped.'));
    return this.waiters.whenSettled(id);
  }

  /** Resolves once the job has left the queue (running or already ended). */
  whenStarted(id: number): Promise<JobStatus> {
    if (this.state === 'stopped') return Promise.reject(new Error('The job runner stopped.'));
    return this.waiters.whenStarted(id);
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }

  /** The queued job's place in the fair order (1 starts next), or null when it is not queued. */
  async queuePosition(id: number): Promise<number | null> {
    const order = fairOrder(await queuedJobs(this.db, [...this.kinds.keys()]), await this.fairState());
    const i = order.findIndex((j) => j.id === id);
    return i < 0 ? null : i + 1;
  }

  /** Every queued job's place in the fair order, by job id. */
  async queuePositions(): Promise<Map<number, number>> {
    const order = fairOrder(await queuedJobs(this.db, [...this.kinds.keys()]), await this.fairState());
    return new Map(order.map((j, i) => [j.id, i + 1]));
  }

  /** What runs now on every node (from the database), and this node's round-robin memory. */
  private async fairState(): Promise<FairState> {
    const runningByAccount = new Map<number, number>();
    const runningByUser = new Map<string, number>();
    for (const r of await runningCounts(this.db)) {
      runningByAccount.set(r.account_id, (runningByAccount.get(r.account_id) ?? 0) + r.n);
      const user = userKey(r);
      runningByUser.set(user, (runningByUser.get(user) ?? 0) + r.n);
    }
    return {
      runningByAccount,
      runningByUser,
      lastServedAccount: this.lastServedAccount,
      lastServedUser: this.lastServedUser,
    };
  }

  private failed(what: string, err: unknown): void {
    if (this.state === 'stopped') return;
    this.deps.logger.warn(`${what} failed`, { error: err instanceof Error ? err.message : String(err) });
  }

  /** Starts queued jobs while this node has free slots; one pass at a time, again if asked meanwhile. */
  private pump(): void {
    if (this.state !== 'running') return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.fill()
      .catch((err) => this.failed('job start', err))
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  private async fill(): Promise<void> {
    // Bounded: a claim lost to another node is retried with fresh counts, but never forever.
    for (let attempts = 0; attempts < this.options.slots + 8; attempts++) {
      if (this.state !== 'running' || this.active.size >= this.options.slots + this.options.overflow) return;
      const queued = await queuedJobs(this.db, [...this.kinds.keys()]);
      const pick = nextFair(queued, await this.fairState(), this.options, this.active.size);
      if (!pick || this.state !== 'running') return;
      const job = await this.claim(pick.id, pick.account_id, userKey(pick));
      if (job && this.state === 'running') this.begin(job);
    }
  }

  /**
   * Claims a job for this node if its account and user are still under their limits, counted over every
   * node: the account's row is locked meanwhile, so two nodes never both take an account's last slot.
   */
  private claim(id: number, accountId: number, user: string): Promise<JobRow | null> {
    return transaction(this.deps.storage, async (tx) => {
      await lockAccountRow(tx, accountId);
      let byAccount = 0;
      let byUser = 0;
      for (const r of await runningCounts(tx, accountId)) {
        byAccount += r.n;
        if (userKey(r) === user) byUser += r.n;
      }
      if (byAccount >= this.options.perAccount || byUser >= this.options.perUser) return null;
      if (!mayStart(byAccount, this.active.size, this.options)) return null;
      return claimJob(tx, { id, account_id: accountId }, this.nodeId, this.now());
    });
  }

  /** Follows what other nodes and requests did: kills asked of this node's jobs, ends of awaited jobs, new work. */
  private async poll(): Promise<void> {
    if (this.state !== 'running') return;
    const ids = new Set([...this.active.keys(), ...this.waiters.ids()]);
    for (const row of await jobStates(this.db, [...ids])) {
      const id = Number(row.id);
      if (this.active.has(id)) {
        if (row.kill_requested_at !== null && row.status === 'running') {
          const job = await jobById(this.db, id);
          if (job) await this.killHere(job);
        } else if (FINISHED.includes(row.status)) {
          // Ended elsewhere (killed while this node claimed it): free the slot, drop the work.
          const active = this.active.get(id);
          this.active.delete(id);
          active?.controller.abort(new Error('The job ended elsewhere.'));
        }
      }
      this.waiters.reached(id, row.status);
    }
    this.pump();
  }

  private log(job: JobRow, line: string): void {
    const previous = this.logs.get(job.id) ?? Promise.resolve();
    const next = previous
      .then(() => appendCmdout(this.db, job, `${line}\n`, this.now()))
      .catch((err) => this.failed('job log', err));
    this.logs.set(job.id, next);
  }

  private begin(running: JobRow): void {
    const job = running;
    const kind = this.kinds.get(job.type) as JobKind;
    const controller = new AbortController();
    const user = userKey(job);
    this.active.set(job.id, { controller, account: job.account_id, user });
    this.served++;
    this.lastServedAccount.set(job.account_id, this.served);
    this.lastServedUser.set(user, this.served);
    const limit = this.options.timeLimitSeconds;
    const timer = setTimeout(() => {
      const message = `Stopped: time limit of ${limit} s exceeded.`;
      if (this.active.get(job.id)?.controller === controller) this.active.delete(job.id);
      controller.abort(new Error(message));
      this.end(running, kind, { status: 'error', stderr: message })
        .catch((err) => this.failed('job end', err))
        .finally(() => this.pump());
    }, limit * 1000);
    timer.unref();
    this.waiters.reached(job.id, 'running');
    const ctx: JobContext = {
      deps: this.deps,
      signal: controller.signal,
      log: (line) => this.log(job, line),
    };
    Promise.resolve()
      .then(() => kind.run(running, ctx))
      .then(
        async (outcome) => {
          await this.logs.get(job.id);
          await this.end(running, kind, { ...outcome, status: 'success' });
        },
        async (error: unknown) => {
          if (controller.signal.aborted) return;
          const message = error instanceof Error ? error.message : String(error);
          // The message may quote customer data; it goes to the job's debug.stderr, not to the log.
          this.deps.logger.warn('job failed', {
            job: job.id,
            type: job.type,
            error: error instanceof Error ? error.name : 'Error',
          });
          await this.logs.get(job.id);
          await this.end(running, kind, { status: 'error', stderr: message });
        },
      )
      .catch((err) => this.failed('job end', err))
      .finally(() => {
        clearTimeout(timer);
        this.logs.delete(job.id);
        // Only this run's entry: stop() or a kill may have cleared it already.
        if (this.active.get(job.id)?.controller === controller) this.active.delete(job.id);
        this.pump();
      });
  }

  /** Records a job's end once; cleans up after anything but success; wakes whoever waits. */
  private async end(job: JobRow, kind: JobKind | undefined, finish: Finish): Promise<void> {
    if (this.state === 'stopped') return;
    const ended = await finishJob(this.db, job, finish, this.now());
    if (!ended) {
      // Ended meanwhile (killed): what a late success produced is not wanted.
      if (finish.status === 'success') await kind?.onFailed?.(job);
      return;
    }
    if (finish.status !== 'success') await kind?.onFailed?.(job);
    this.waiters.reached(job.id, finish.status);
  }
}
