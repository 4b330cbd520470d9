import { availableParallelism } from 'node:os';
import { defaultPartLimits, type PartLimits } from '@svc/bulk-format';
import type { AppDeps } from '../platform/context';

/** Points in perform and commit where a test can stop the server as a crash would. */
export type CrashPoint =
  /** Perform has written part of the staged rows, not yet published them. */
  | 'perform:staging'
  /** Commit has written the rows inside its data transaction, not yet committed it. */
  | 'commit:rows-written'
  /** Commit's data transaction is durable; the session is not yet marked committed. */
  | 'commit:data-committed';

export interface BulkImportOptions {
  limits: PartLimits;
  /**
   * Called at each crash point. A test throws (or never resolves) here to leave the files and rows
   * exactly as a process dying at that point would, then starts a new app on the same data directory.
   */
  crashPoint?: (point: CrashPoint) => void | Promise<void>;
  /** Least time between two progress lines a perform writes to its job's `debug.cmdout`. */
  progressEveryMs: number;
  /**
   * Parts one perform reads at once, each in a task of its own: 4, or the cores when there are more (at most 8).
   * Reading is work for a core (gunzip, decoding, the record rules); more parts than cores keep the cores evenly
   * busy when a session has few parts (3 parts on 2 cores take 1.5 parts' time, not 2). On PostgreSQL tasks
   * share the server's thread: one.
   */
  partsAtOnce: number;
}

/** The app's dependencies, optionally with bulk import settings (tests give smaller limits). */
export interface BulkImportDeps extends AppDeps {
  bulkImport?: Partial<BulkImportOptions>;
}

/** Read on every use, so a test may set `deps.bulkImport` after the app is built. */
export function bulkImportOptions(deps: BulkImportDeps): BulkImportOptions {
  const given = deps.bulkImport ?? {};
  const partsAtOnce = deps.storage.backend === 'postgres' ? 1 : Math.min(8, Math.max(4, availableParallelism()));
  return { progressEveryMs: 1000, partsAtOnce, ...given, limits: { ...defaultPartLimits, ...given.limits } };
}
