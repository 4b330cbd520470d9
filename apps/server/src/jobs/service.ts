import { hostname } from 'node:os';
import type { AppDeps } from '../platform/context';
import { queryJobKind } from './queryJob';
import { JobRunner } from './runner';

export interface JobServiceOptions {
  /** Jobs running at once over all accounts (`SVC_JOB_SLOTS`, default 4). */
  concurrency?: number;
  /**
   * Jobs started beyond the slots, each for an account that runs nothing (`SVC_JOB_OVERFLOW_SLOTS`, default the
   * slots; 0 turns it off): another account's short query starts at once whatever others run (decision 0035).
   */
  overflow?: number;
  /** Jobs one account may run at once (`SVC_JOB_LIMIT_PER_ACCOUNT`, default 3, at most the slots). */
  perAccount?: number;
  /** Jobs one user may run at once (`SVC_JOB_LIMIT_PER_USER`, default 2, at most the account's limit). */
  perUser?: number;
  /** Seconds any job may run before it ends in error (`SVC_JOB_TIME_LIMIT_SECONDS`, default 3600). */
  timeLimitSeconds?: number;
  /** Seconds a query may run once its process has it (default: the job time limit). */
  queryTimeLimitSeconds?: number;
  /** Largest msgpack result a query may write (default 1 GiB). */
  maxResultBytes?: number;
  /** This node's name on the jobs it runs (`SVC_NODE_ID`, default the host name); stable across restarts. */
  nodeId?: string;
  /** How often the runner polls for work, kills and ends on other nodes (ms, default 1000). */
  pollMs?: number;
}

const DEFAULTS = { concurrency: 4, perAccount: 3, perUser: 2, timeLimitSeconds: 3600 };

/** The job limits from the environment (README "Configure"); a bad value stops the start with its name. */
export function jobOptionsFromEnv(env: NodeJS.ProcessEnv): JobServiceOptions {
  const read = (name: string, fallback: number, max: number, min = 1) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
    }
    return n;
  };
  const concurrency = read('SVC_JOB_SLOTS', DEFAULTS.concurrency, 256);
  return {
    concurrency,
    overflow: read('SVC_JOB_OVERFLOW_SLOTS', concurrency, 256, 0),
    perAccount: read('SVC_JOB_LIMIT_PER_ACCOUNT', DEFAULTS.perAccount, 256),
    perUser: read('SVC_JOB_LIMIT_PER_USER', DEFAULTS.perUser, 256),
    timeLimitSeconds: read('SVC_JOB_TIME_LIMIT_SECONDS', DEFAULTS.timeLimitSeconds, 7 * 24 * 3600),
    ...(env.SVC_NODE_ID?.trim() ? { nodeId: env.SVC_NODE_ID.trim() } : {}),
  };
}

/**
 * The job runner of an app with the query kind registered. Other kinds (bulk import) register on it;
 * `createApp` starts it, and stopping the app stops it.
 */
export function createJobService(deps: AppDeps, options: JobServiceOptions = {}): JobRunner {
  const slots = options.concurrency ?? DEFAULTS.concurrency;
  const perAccount = Math.min(options.perAccount ?? DEFAULTS.perAccount, Math.max(1, slots));
  const perUser = Math.min(options.perUser ?? DEFAULTS.perUser, perAccount);
  const timeLimitSeconds = options.timeLimitSeconds ?? DEFAULTS.timeLimitSeconds;
  const runner = new JobRunner(deps, {
    slots,
    overflow: options.overflow ?? slots,
    perAccount,
    perUser,
    timeLimitSeconds,
    nodeId: options.nodeId ?? hostname(),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  runner.register(
    queryJobKind(deps, {
      timeLimitSeconds: options.queryTimeLimitSeconds ?? timeLimitSeconds,
      maxResultBytes: options.maxResultBytes ?? 1024 * 1024 * 1024,
    }),
  );
  return runner;
}
