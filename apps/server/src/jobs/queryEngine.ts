import { type DatabaseRow, listTables, onDuck, readTableSchema } from '../data';
import type { AppDeps } from '../platform/context';
import { customerSchema, type PostgresStorage } from '../platform/storage';
import { tokenize } from './query/dialect';
import { pooledDuckQueryEngine } from './query/duckdb/pooled';
import { checkQueryText } from './query/guard';
import type { QueryOutcome } from './query/outcome';
import { installQueryFunctions } from './query/postgres/functions';
import { runPostgresQuery } from './query/postgres/runQuery';
import { refuseServiceTables } from './query/postgres/serviceTables';
import { ResultWriter } from './query/resultWriter';
import { unnestClauses } from './query/unnest';

/**
 * Where a query job's SQL runs: the engine of the data plane. The embedded mode runs the Presto dialect
 * translated to DuckDB over the customer database's file, in the worker that owns it (query/duckdb/); PostgreSQL
 * runs it translated to PostgreSQL over the database's schema (query/postgres/). The SQLite engine (query
 * processes over SQLite files) went with the SQLite data plane (decision 0053).
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

/**
 * PostgreSQL: the Presto dialect translated to PostgreSQL (query/postgres/), run over the database's schema in a
 * read-only transaction as the schema's read role, with the job's time limit; the rows stream into the same
 * result files as on DuckDB.
 */
function postgresQueryEngine(deps: AppDeps, storage: PostgresStorage): QueryEngine {
  let functions: Promise<void> | null = null;
  const installFunctions = () => {
    functions ??= (async () => {
      const client = await storage.pool.connect();
      try {
        await installQueryFunctions(client);
      } finally {
        client.release();
      }
    })();
    // A failed install is tried again by the next query rather than remembered.
    functions.catch(() => {
      functions = null;
    });
    return functions;
  };
  return {
    async inspect(_database, query) {
      // The text and the dialect's shapes are refused now; what the engine cannot run (an unknown function or
      // column) is queued and ends in error with the reason.
      checkQueryText(query);
      const tokens = tokenize(query);
      // The figures table is refused at issue, as on DuckDB, with its message.
      refuseServiceTables(tokens);
      unnestClauses(tokens);
    },
    async run(query, target, signal) {
      await installFunctions();
      const { database } = target;
      const tables = await listTables(deps.storage.db, database.account_id, database.id);
      const tableTypes = new Map(
        tables.map((t) => [
          t.name,
          new Map([['time', 'long'], ...readTableSchema(t.schema_json).map(([n, ty]) => [n, ty] as [string, string])]),
        ]),
      );
      const writer = new ResultWriter(target.msgpackPath, target.maxResultBytes);
      try {
        const result = await runPostgresQuery({
          pool: storage.pool,
          schema: customerSchema(database.id),
          database: database.name,
          sql: query,
          nowMs: target.nowMs,
          timeoutMs: target.timeLimitSeconds * 1000,
          maxRows: Number.MAX_SAFE_INTEGER,
          tableTypes,
          signal,
          onRows: (rows) => {
            for (const row of rows) writer.write(row);
          },
        });
        const gzipBytes = await writer.finish(target.gzipPath);
        return { schema: result.schema, numRecords: writer.rows, bytes: writer.bytes, gzipBytes };
      } finally {
        writer.close();
      }
    },
    close() {},
  };
}

/** The engine of the app's data plane: DuckDB (query/duckdb/pooled.ts) or PostgreSQL. */
export function queryEngineFor(deps: AppDeps): QueryEngine {
  return onDuck(deps) ? pooledDuckQueryEngine(deps) : postgresQueryEngine(deps, deps.storage as PostgresStorage);
}
