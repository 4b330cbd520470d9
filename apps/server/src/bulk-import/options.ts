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
   * Parts one perform reads at once, each in a task of its own: half the cores, at least 1 and at most 8. One
   * part's reading already keeps more than a core busy (gunzip runs in libuv's pool, the garbage collector and
   * the optimising compiler in threads of their own), and each worker warms its compiled code separately: on 2
   * cores, 3 parts one after another in one worker take 0.35 s, 3 at once 0.43 s (docs/benchmarks.md).
   */
  partsAtOnce: number;
  /** Parts one session takes (`SVC_BULK_IMPORT_MAX_PARTS`); one more is refused with 422. */
  maxParts: number;
}

/** `SVC_BULK_IMPORT_MAX_PARTS` when unset: 1,000 parts of up to 256 MiB each, 250 GiB compressed per session. */
export const DEFAULT_MAX_PARTS = 1000;

/** The app's dependencies, optionally with bulk import settings (tests give smaller limits). */
export interface BulkImportDeps extends AppDeps {
  bulkImport?: Partial<BulkImportOptions>;
}

/** Read on every use, so a test may set `deps.bulkImport` after the app is built. */
export function bulkImportOptions(deps: BulkImportDeps): BulkImportOptions {
  const given = deps.bulkImport ?? {};
  const partsAtOnce = Math.min(8, Math.max(1, Math.floor(availableParallelism() / 2)));
  const maxParts = deps.config.bulkImportMaxParts ?? DEFAULT_MAX_PARTS;
  return { progressEveryMs: 1000, partsAtOnce, maxParts, ...given, limits: { ...defaultPartLimits, ...given.limits } };
}
