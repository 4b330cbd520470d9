import { join } from 'node:path';
import { type DatabaseRow, findDatabase } from '../data';
import type { AppDeps } from '../platform/context';
import { makeDir } from '../platform/fileModes';
import type { JobKind } from './jobKind';
import type { JobRow } from './jobStore';
import { hiveToPresto } from './query/hive';
import { withCallResultTypes } from './query/selectItems';
import { queryEngineFor } from './queryEngine';
import { withDatabaseNamed } from './queryErrors';
import { writeResult } from './resultOutput';
import { resultStoreFor } from './resultStore';

/**
 * Query jobs (`presto`, `trino`, and `hive`, the clients' default): the SQL runs on the storage backend's
 * query engine (queryEngine.ts). HiveQL is first rewritten into the Presto dialect (query/hive.ts).
 */

export const QUERY_TYPES = ['presto', 'trino', 'hive'] as const;

/** A job's query as Presto-dialect text, whatever its type; QueryRefused for HiveQL with no translation. */
function prestoText(type: string, query: string): string {
  return type === 'hive' ? hiveToPresto(query) : query;
}

export interface QueryJobOptions {
  timeLimitSeconds: number;
  maxResultBytes: number;
}

/** Where a job's result lives: `results/<account>/<job>.msgpack` and its `.gz`, under the data directory. */
function resultFiles(dataDir: string, job: Pick<JobRow, 'id' | 'account_id'>) {
  const relative = join('results', String(job.account_id), `${job.id}.msgpack`);
  const msgpack = join(dataDir, relative);
  return { relative, dir: join(dataDir, 'results', String(job.account_id)), msgpack, gzip: `${msgpack}.gz` };
}

/** Checks a query before it is queued (QueryEngine.inspect). */
export async function inspectQuery(deps: AppDeps, database: DatabaseRow, type: string, query: string): Promise<void> {
  await queryEngineFor(deps).inspect(database, prestoText(type, query));
}

export function queryJobKind(deps: AppDeps, options: QueryJobOptions): JobKind {
  const engine = queryEngineFor(deps);
  const results = resultStoreFor(deps);
  return {
    types: QUERY_TYPES,
    async run(job, ctx) {
      const database = job.database_name
        ? await findDatabase(deps.storage.db, job.account_id, job.database_name)
        : null;
      if (!database) throw new Error(`The database "${job.database_name}" no longer exists.`);
      const files = resultFiles(deps.config.dataDir, job);
      makeDir(files.dir);
      const started = performance.now();
      const presto = prestoText(job.type, job.query ?? '');
      const outcome = await engine
        .run(
          presto,
          {
            database,
            msgpackPath: files.msgpack,
            gzipPath: files.gzip,
            // A scheduled query runs as of its slot (TD_SCHEDULED_TIME), whenever it actually starts.
            nowMs: job.scheduled_at ?? job.created_at,
            maxResultBytes: options.maxResultBytes,
            timeLimitSeconds: options.timeLimitSeconds,
          },
          ctx.signal,
        )
        .catch(async (err: unknown) => {
          if (!(err instanceof Error)) throw err;
          err.message = await withDatabaseNamed(deps.storage.db, database, err.message);
          throw err;
        });
      // Before the result is kept: the PostgreSQL store moves the files away.
      const output = job.result_url
        ? await writeResult(
            deps,
            job,
            {
              file: files.msgpack,
              columns: outcome.schema.map(([name]) => name),
              bytes: outcome.bytes,
            },
            ctx.signal,
          )
        : '';
      await results.keep(job, { msgpack: files.msgpack, gzip: files.gzip });
      const ms = Math.round(performance.now() - started);
      return {
        resultPath: files.relative,
        resultSize: outcome.gzipBytes,
        numRecords: outcome.numRecords,
        hiveResultSchema: JSON.stringify(withCallResultTypes(presto, outcome.schema)),
        cmdout: `${outcome.numRecords} rows, ${outcome.bytes} bytes in ${ms} ms\n${output}`,
      };
    },
    async onFailed(job) {
      const files = resultFiles(deps.config.dataDir, job);
      await results.remove(job, { msgpack: files.msgpack, gzip: files.gzip });
    },
    close() {
      engine.close();
    },
  };
}
