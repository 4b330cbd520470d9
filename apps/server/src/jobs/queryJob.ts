import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteError } from 'better-sqlite3';
import { type DatabaseRow, databaseFile, findDatabase } from '../data/catalog';
import type { AppDeps } from '../platform/context';
import type { JobRow } from './jobStore';
import { translate } from './query/dialect';
import { openForQuery } from './query/executeQuery';
import { checkPrepared, checkQueryText } from './query/guard';
import { hiveToPresto } from './query/hive';
import { QueryPool } from './query/queryPool';
import type { JobKind } from './runner';

/**
 * Query jobs (`presto`, `trino`, and `hive`, the clients' default): the SQL runs in a query process on a
 * read-only connection. HiveQL is first rewritten into the Presto dialect (query/hive.ts).
 */

export const QUERY_TYPES = ['presto', 'trino', 'hive'] as const;

/** A job's query as Presto-dialect text, whatever its type; QueryRefused for HiveQL with no translation. */
export function prestoText(type: string, query: string): string {
  return type === 'hive' ? hiveToPresto(query) : query;
}

export interface QueryJobOptions {
  timeLimitSeconds: number;
  maxResultBytes: number;
}

/** Where a job's result lives: `results/<account>/<job>.msgpack` and its `.gz`, under the data directory. */
export function resultFiles(dataDir: string, job: Pick<JobRow, 'id' | 'account_id'>) {
  const relative = join('results', String(job.account_id), `${job.id}.msgpack`);
  const msgpack = join(dataDir, relative);
  return { relative, dir: join(dataDir, 'results', String(job.account_id)), msgpack, gzip: `${msgpack}.gz` };
}

/**
 * Checks a query before it is queued: one statement that only reads (QueryRefused otherwise). SQL that
 * SQLite cannot prepare (a typo, an unknown table) is queued anyway and ends in error with SQLite's
 * message, as a query engine reports it.
 */
export function inspectQuery(deps: AppDeps, database: DatabaseRow, type: string, query: string): void {
  const presto = prestoText(type, query);
  checkQueryText(presto);
  const sql = translate(presto, database.name);
  const db = openForQuery(
    databaseFile(deps.config.dataDir, database.account_id, database.id),
    deps.clock.now().getTime(),
  );
  try {
    checkPrepared(db.prepare(sql));
  } catch (e) {
    if (!(e instanceof SqliteError)) throw e;
  } finally {
    db.close();
  }
}

export function queryJobKind(deps: AppDeps, options: QueryJobOptions): JobKind {
  const pool = new QueryPool();
  return {
    types: QUERY_TYPES,
    async run(job, ctx) {
      const database = job.database_name ? findDatabase(deps.db, job.account_id, job.database_name) : null;
      if (!database) throw new Error(`The database "${job.database_name}" no longer exists.`);
      const sql = translate(prestoText(job.type, job.query ?? ''), database.name);
      const files = resultFiles(deps.config.dataDir, job);
      mkdirSync(files.dir, { recursive: true });
      const started = performance.now();
      const outcome = await pool.run(
        {
          file: databaseFile(deps.config.dataDir, database.account_id, database.id),
          sql,
          msgpackPath: files.msgpack,
          gzipPath: files.gzip,
          nowMs: job.created_at,
          maxResultBytes: options.maxResultBytes,
        },
        ctx.signal,
        options.timeLimitSeconds,
      );
      const ms = Math.round(performance.now() - started);
      return {
        resultPath: files.relative,
        resultSize: outcome.gzipBytes,
        numRecords: outcome.numRecords,
        hiveResultSchema: JSON.stringify(outcome.schema),
        cmdout: `${outcome.numRecords} rows, ${outcome.bytes} bytes in ${ms} ms\n`,
      };
    },
    onFailed(job) {
      const files = resultFiles(deps.config.dataDir, job);
      rmSync(files.msgpack, { force: true });
      rmSync(files.gzip, { force: true });
    },
    close() {
      pool.close();
    },
  };
}
