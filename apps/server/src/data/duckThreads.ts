/**
 * DuckDB's asynchronous calls run on libuv's thread pool, one per process (decision 0038). A query job holds a
 * thread for as long as it runs, so with every job slot and overflow slot busy the pool must still have
 * threads for everything else that calls DuckDB: group commits, table browsing, segment reads. The pool's size
 * is read once, from `UV_THREADPOOL_SIZE`, before the process's first line runs, so it is checked, not set.
 */

/** Threads kept for DuckDB calls other than query jobs. */
const THREADS_BESIDE_JOBS = 4;
/** libuv's own default, when the variable is not set. */
const LIBUV_DEFAULT = 4;

/** The thread pool size DuckDB needs with these job limits. */
function duckThreadsNeeded(jobs: { concurrency?: number; overflow?: number }): number {
  const slots = jobs.concurrency ?? 4;
  return slots + (jobs.overflow ?? slots) + THREADS_BESIDE_JOBS;
}

/** Why the thread pool of this process is too small for DuckDB, in words a person can act on; null when it is not. */
export function duckThreadPoolShortfall(
  env: NodeJS.ProcessEnv,
  jobs: { concurrency?: number; overflow?: number },
): string | null {
  const needed = duckThreadsNeeded(jobs);
  const raw = env.UV_THREADPOOL_SIZE?.trim();
  const size = raw ? Number(raw) : LIBUV_DEFAULT;
  if (Number.isInteger(size) && size >= needed) return null;
  return (
    `UV_THREADPOOL_SIZE is ${raw ? `"${raw}"` : 'not set (4 threads)'}, and the DuckDB data plane needs at least ${needed} ` +
    `(the job slots and overflow slots, plus ${THREADS_BESIDE_JOBS}); set UV_THREADPOOL_SIZE=${needed} in the environment that ` +
    'starts the server (npm start sets it).'
  );
}
