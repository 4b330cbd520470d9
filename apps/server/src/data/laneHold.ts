import type { AppDeps } from '../platform/context';
import { work } from '../platform/work';
import type { DatabaseRow } from './catalog';
import { dataTaskOptions } from './dataPlane';

/**
 * Runs `fn` from the server while the lanes of `databases` are held: a `data.hold-lane` task waits in each
 * lane (in its file's owner on DuckDB) until `fn` ends, so every write queued in those lanes before it has
 * ended and none queued after it starts meanwhile. `fn`'s own steps are sent without a lane (with the file's
 * owner). The lanes are taken in the order of the databases' ids, so two callers holding the same two lanes
 * cannot wait on each other.
 */
export async function holdingLanes<T>(deps: AppDeps, databases: DatabaseRow[], fn: () => Promise<T>): Promise<T> {
  const pool = work(deps);
  const release = new AbortController();
  const gates: Promise<unknown>[] = [];
  try {
    for (const database of [...databases].sort((a, b) => a.id - b.id)) {
      let held = () => {};
      const holding = new Promise<void>((resolve) => {
        held = resolve;
      });
      const gate = pool.run(
        'data.hold-lane',
        {},
        {
          ...dataTaskOptions(deps, database),
          signal: release.signal,
          onProgress: () => held(),
        },
      );
      gates.push(gate.catch(() => undefined));
      await Promise.race([holding, gate]);
    }
    return await fn();
  } finally {
    release.abort(new Error('The lanes are released.'));
    await Promise.all(gates);
  }
}
