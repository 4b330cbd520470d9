/**
 * Fair job scheduling: which queued job takes the next free slot. Slots go round-robin between accounts,
 * and within an account between its users; within one user, the highest priority first, then the oldest.
 * An account or user already running its limit of jobs is skipped until one of them ends. Pure: the
 * runner (runner.ts) keeps the counters and asks.
 */

export interface QueuedJob {
  id: number;
  account_id: number;
  user_id: number | null;
  priority: number;
}

export interface FairLimits {
  /** Jobs running at once on a node, over all accounts. */
  slots: number;
  /**
   * Jobs a node may start beyond its slots, each for an account that runs nothing (decision 0035), so however
   * long other accounts' jobs run, another account's job starts at once.
   */
  overflow: number;
  /** Jobs running at once for one account. */
  perAccount: number;
  /** Jobs running at once for one user. */
  perUser: number;
}

/** What is running now, and when each account and user was last served (a rising counter). */
export interface FairState {
  runningByAccount: ReadonlyMap<number, number>;
  runningByUser: ReadonlyMap<string, number>;
  lastServedAccount: ReadonlyMap<number, number>;
  lastServedUser: ReadonlyMap<string, number>;
}

/** A user's key: users are per account, and a job without a user counts as the account's own. */
export const userKey = (job: Pick<QueuedJob, 'account_id' | 'user_id'>) => `${job.account_id}/${job.user_id ?? '-'}`;

const byPriorityThenAge = (a: QueuedJob, b: QueuedJob) => b.priority - a.priority || a.id - b.id;

/** Least recently served first; then the higher priority; then the older job. */
type Rank = [served: number, negPriority: number, id: number];
const rankOf = (served: number, job: QueuedJob): Rank => [served, -job.priority, job.id];
const before = (a: Rank, b: Rank) => (a[0] - b[0] || a[1] - b[1] || a[2] - b[2]) < 0;

/**
 * The queued jobs in the order they would start if every slot freed now, limits left aside: round-robin
 * over accounts (least recently served first, then the account whose best job is oldest), then over each
 * account's users the same way. `position` of a queued job is its index here plus one.
 */
export function fairOrder(queued: readonly QueuedJob[], state: FairState): QueuedJob[] {
  // account → user → jobs, each user's jobs by priority then age.
  const accounts = new Map<number, Map<string, QueuedJob[]>>();
  for (const job of [...queued].sort(byPriorityThenAge)) {
    let users = accounts.get(job.account_id);
    if (!users) {
      users = new Map();
      accounts.set(job.account_id, users);
    }
    const key = userKey(job);
    const list = users.get(key);
    if (list) list.push(job);
    else users.set(key, [job]);
  }
  const served = new Map(state.lastServedAccount);
  const servedUser = new Map(state.lastServedUser);
  let tick = Math.max(0, ...served.values(), ...servedUser.values());
  const out: QueuedJob[] = [];
  const head = (users: Map<string, QueuedJob[]>) => nextUser(users, servedUser);
  while (accounts.size > 0) {
    let pickAccount: number | null = null;
    let pickUser: string | null = null;
    let best: Rank | null = null;
    for (const [account, users] of accounts) {
      const user = head(users);
      const rank = rankOf(served.get(account) ?? 0, (users.get(user) as QueuedJob[])[0] as QueuedJob);
      if (!best || before(rank, best)) {
        best = rank;
        pickAccount = account;
        pickUser = user;
      }
    }
    const users = accounts.get(pickAccount as number) as Map<string, QueuedJob[]>;
    const list = users.get(pickUser as string) as QueuedJob[];
    out.push(list.shift() as QueuedJob);
    tick++;
    served.set(pickAccount as number, tick);
    servedUser.set(pickUser as string, tick);
    if (list.length === 0) users.delete(pickUser as string);
    if (users.size === 0) accounts.delete(pickAccount as number);
  }
  return out;
}

/** The user of an account to serve next: least recently served, then the one whose best job comes first. */
function nextUser(users: Map<string, QueuedJob[]>, servedUser: Map<string, number>): string {
  let pick = '';
  let best: Rank | null = null;
  for (const [user, jobs] of users) {
    const rank = rankOf(servedUser.get(user) ?? 0, jobs[0] as QueuedJob);
    if (!best || before(rank, best)) {
      best = rank;
      pick = user;
    }
  }
  return pick;
}

/**
 * Whether a job of an account that runs `running` jobs (on any node) may start on a node running `active`:
 * within the slots any account may; past them, in an overflow slot, only an account that runs nothing.
 */
export const mayStart = (running: number, active: number, limits: Pick<FairLimits, 'slots' | 'overflow'>) =>
  active < limits.slots || (running === 0 && active < limits.slots + limits.overflow);

/**
 * The next job to start on a node running `active` jobs (none when not given): the first in fair order whose
 * account and user are under their limits and that may take a slot (`mayStart`).
 */
export function nextFair(
  queued: readonly QueuedJob[],
  state: FairState,
  limits: FairLimits,
  active = 0,
): QueuedJob | null {
  for (const job of fairOrder(queued, state)) {
    const running = state.runningByAccount.get(job.account_id) ?? 0;
    if (running >= limits.perAccount || !mayStart(running, active, limits)) continue;
    if ((state.runningByUser.get(userKey(job)) ?? 0) >= limits.perUser) continue;
    return job;
  }
  return null;
}
