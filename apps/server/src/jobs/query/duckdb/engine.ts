import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatabaseRow } from '../../../data';
import type { QueryEngine } from '../../queryEngine';
import { registerDuckFunctions } from './functions';
import { prepareDuckQuery, runDuckQuery } from './runQuery';
import { inspectDuckQuery } from './sandbox';

/**
 * Runs `work` with a connection to the database's DuckDB file, in the thread of the file's owner (the data
 * plane's), and resolves with its result. The instance must be opened with duckSandboxSettings.
 */
export type WithDuckConnection = <T>(
  database: DatabaseRow,
  work: (connection: DuckDBConnection) => Promise<T>,
) => Promise<T>;

export interface DuckQueryEngineOptions {
  /** The memory limit the instances are opened with (duckSandboxSettings), named in the job's error. */
  memoryLimitBytes: number;
}

/**
 * Query jobs on DuckDB: the Presto text (HiveQL is already rewritten by queryJob.ts) checked and translated here,
 * run on the connection `withConnection` lends. A kill aborts `signal`, which interrupts the connection.
 */
export function duckQueryEngine(withConnection: WithDuckConnection, options: DuckQueryEngineOptions): QueryEngine {
  return {
    async inspect(database, query) {
      const sql = prepareDuckQuery(query, 'presto', database.name, Date.now());
      await withConnection(database, async (connection) => {
        registerDuckFunctions(connection);
        await inspectDuckQuery(connection, sql);
      });
    },
    run(query, target, signal) {
      return withConnection(target.database, (connection) =>
        runDuckQuery(connection, {
          query,
          type: 'presto',
          database: target.database.name,
          msgpackPath: target.msgpackPath,
          gzipPath: target.gzipPath,
          nowMs: target.nowMs,
          maxResultBytes: target.maxResultBytes,
          timeLimitSeconds: target.timeLimitSeconds,
          memoryLimitBytes: options.memoryLimitBytes,
          signal,
        }),
      );
    },
    close() {},
  };
}
