import { SqliteError } from 'better-sqlite3';
import { type DatabaseRow, databaseFile } from '../data/catalog';
import type { AppDeps } from '../platform/context';
import { translate } from './query/dialect';
import { openForQuery, type QueryOutcome } from './query/executeQuery';
import { checkPrepared, checkQueryText } from './query/guard';
import { QueryPool } from './query/queryPool';

/**
 * Where a query job's SQL runs: the engine of the storage backend. SQLite runs the Presto dialect translated
 * to SQLite in query processes over the customer database's file (query/); PostgreSQL will run it translated
 * to PostgreSQL over the database's schema (query/postgres/, not merged yet: its slot says so).
 */
export interface QueryEngine {
  /**
   * Checks a query before it is queued: one statement that only reads (QueryRefused otherwise). SQL the
   * engine cannot prepare (a typo, an unknown table) is queued anyway and ends in error with its message.
   */
  inspect(database: DatabaseRow, query: string): Promise<void>;
  /** Runs the query and writes its rows as msgpack and gzip to `target`; aborting `signal` kills it. */
  run(query: string, target: QueryTarget, signal: AbortSignal): Promise<QueryOutcome>;
  close(): void;
}

export interface QueryTarget {
  database: DatabaseRow;
  msgpackPath: string;
  gzipPath: string;
  /** The job's "now", for TD_SCHEDULED_TIME, TD_INTERVAL and now(). */
  nowMs: number;
  maxResultBytes: number;
  /** Seconds the query may run once the engine has it. */
  timeLimitSeconds: number;
}

/** SQLite: the query processes of query/queryPool.ts, started on first use. */
export function sqliteQueryEngine(deps: AppDeps): QueryEngine {
  let pool: QueryPool | null = null;
  const fileOf = (database: DatabaseRow) => databaseFile(deps.config.dataDir, database.account_id, database.id);
  return {
    async inspect(database, query) {
      checkQueryText(query);
      const sql = translate(query, database.name);
      const db = openForQuery(fileOf(database), deps.clock.now().getTime());
      try {
        checkPrepared(db.prepare(sql));
      } catch (e) {
        if (!(e instanceof SqliteError)) throw e;
      } finally {
        db.close();
      }
    },
    run(query, target, signal) {
      pool ??= new QueryPool();
      return pool.run(
        {
          file: fileOf(target.database),
          sql: translate(query, target.database.name),
          msgpackPath: target.msgpackPath,
          gzipPath: target.gzipPath,
          nowMs: target.nowMs,
          maxResultBytes: target.maxResultBytes,
        },
        signal,
        target.timeLimitSeconds,
      );
    },
    close() {
      pool?.close();
    },
  };
}

/** PostgreSQL: the slot for the Presto→PostgreSQL translator (jobs/query/postgres/); the lead wires it. */
export function postgresQueryEngine(): QueryEngine {
  return {
    async inspect(_database, query) {
      checkQueryText(query);
    },
    async run() {
      throw new Error(
        'Query jobs do not run on the PostgreSQL backend yet: the Presto to PostgreSQL translation is not available in this build.',
      );
    },
    close() {},
  };
}

/** The engine of the app's storage backend. */
export function queryEngineFor(deps: AppDeps): QueryEngine {
  return deps.storage.backend === 'postgres' ? postgresQueryEngine() : sqliteQueryEngine(deps);
}
