import { type DatabaseRow, duckLimits, duckOwner, withDuckConnection } from '../../../data';
import type { AppDeps } from '../../../platform/context';
import { work } from '../../../platform/work';
import type { TaskContext } from '../../../platform/workerRuntime';
import type { QueryEngine, QueryTarget } from '../../queryEngine';
import { QueryFailed } from '../outcome';
import { QueryRefused } from '../tokens';
import { duckQueryEngine } from './engine';
import { checkDuckQueryText, prepareDuckQuery } from './runQuery';
import { SandboxEscape } from './sandbox';

/**
 * Query jobs on the embedded DuckDB plane as the server runs them: the query's text is checked on the request
 * loop, and everything that touches the database's file (the sandbox's look at the parse tree, the run) is a
 * task sent to the worker that owns the file (decision 0031, `RunOptions.owner`), outside the database's lane,
 * so a job runs beside the file's writes, on a snapshot. A kill cancels the task, which interrupts the query in
 * the owner; the time and byte limits apply there (runQuery.ts). The fair slots are the job runner's, as before.
 */

interface InspectArgs {
  database: DatabaseRow;
  query: string;
}

interface RunArgs {
  query: string;
  target: QueryTarget;
}

/** Errors keep their class across the thread boundary where callers tell them apart. */
function classed(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  if (err.name === 'QueryRefused') return new QueryRefused(err.message);
  if (err.name === 'QueryFailed') return new QueryFailed(err.message);
  return err;
}

export function pooledDuckQueryEngine(deps: AppDeps): QueryEngine {
  return {
    async inspect(database, query) {
      // The text's refusals come at once, without a trip to the worker. What translating finds (a function the
      // engine does not have, a time literal that is not one) is queued, as on the other engines, and its job
      // ends with the reason.
      const presto = checkDuckQueryText(query, 'presto');
      try {
        prepareDuckQuery(presto, 'presto', database.name, deps.clock.now().getTime());
      } catch (err) {
        if (err instanceof QueryRefused && !(err instanceof SandboxEscape)) return;
        throw err;
      }
      try {
        await work(deps).run('query.duck-inspect', { database, query } satisfies InspectArgs, {
          owner: duckOwner(deps, database),
        });
      } catch (err) {
        const e = classed(err);
        // As on the other engines: SQL the engine cannot run is queued, and its job ends with the reason.
        if (e instanceof QueryRefused) throw e;
      }
    },
    async run(query, target, signal) {
      try {
        return await work(deps).run('query.duck-run', { query, target } satisfies RunArgs, {
          owner: duckOwner(deps, target.database),
          signal,
        });
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        throw classed(err);
      }
    },
    close() {},
  };
}

/** The engine inside the owner worker, on the files this thread owns. */
const engineHere = (deps: AppDeps) =>
  duckQueryEngine((database, run) => withDuckConnection(deps, database, run), {
    memoryLimitBytes: duckLimits.memoryLimitBytes,
  });

export const duckQueryTasks = {
  'query.duck-inspect': (ctx: TaskContext, a: InspectArgs) => engineHere(ctx.deps).inspect(a.database, a.query),
  'query.duck-run': (ctx: TaskContext, a: RunArgs) => engineHere(ctx.deps).run(a.query, a.target, ctx.signal),
};
