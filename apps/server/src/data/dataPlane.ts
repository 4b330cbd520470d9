import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { EmbeddedPlane } from '../platform/config';
import type { AppDeps } from '../platform/context';
import { one, sql } from '../platform/storage';
import type { RunOptions } from '../platform/workerPool';
import type { DatabaseRow } from './catalog';
import { dataLane } from './dataFiles';
import { duckFile } from './duckFiles';
import { duckPlane } from './duckPlane';
import type { DataPlane } from './plane';
import { postgresPlane } from './postgresPlane';
import { sqlitePlane } from './sqlitePlane';

/**
 * The embedded default's data plane when `SVC_DATA_PLANE` does not name one (issue 28, decision 0038):
 * customers' rows in DuckDB files. `SVC_DATA_PLANE=sqlite` keeps them in SQLite files.
 */
const EMBEDDED_DEFAULT: EmbeddedPlane = 'duckdb';

type PlaneDeps = Pick<AppDeps, 'storage' | 'config'>;

/** Whether customer rows live in DuckDB files (the embedded mode with the DuckDB plane). */
export function onDuck(deps: PlaneDeps): boolean {
  return deps.storage.backend === 'sqlite' && (deps.config.dataPlane ?? EMBEDDED_DEFAULT) === 'duckdb';
}

/** The data plane of the app's backend (plane.ts): DuckDB or SQLite files, or PostgreSQL schemas. */
export function dataPlane(deps: AppDeps): DataPlane {
  if (deps.storage.backend === 'postgres') return postgresPlane(deps);
  return onDuck(deps) ? duckPlane(deps) : sqlitePlane(deps);
}

/**
 * How a background task that writes a database's data is sent (platform/workerPool.ts): in the database's
 * lane, so its writes keep their order, and on DuckDB to the worker that owns the file (decision 0031), the
 * only thread of the process that opens it.
 */
export function dataTaskOptions(deps: PlaneDeps, database: Pick<DatabaseRow, 'account_id' | 'id'>): RunOptions {
  const lane = dataLane(deps, database);
  return onDuck(deps) ? { lane, owner: duckOwner(deps, database) } : { lane };
}

/** The owner key of a database's DuckDB file (`RunOptions.owner`): for its reads and query jobs, outside its lane. */
export function duckOwner(deps: Pick<AppDeps, 'config'>, database: Pick<DatabaseRow, 'account_id' | 'id'>): string {
  return duckFile(deps.config.dataDir, database.account_id, database.id);
}

/**
 * Resolves while the data plane can serve requests, for readiness (`/health/ready`); throws a plain message
 * when not. SQLite: the data folder holding the database files is there and writable. PostgreSQL: the
 * database holding the customer schemas answers.
 */
export async function dataPlaneReady(deps: AppDeps): Promise<void> {
  if (deps.storage.backend === 'postgres') {
    await one(deps.storage.db, sql`SELECT 1 AS ok`).catch(() => {
      throw new Error('the PostgreSQL database of the customer data does not answer');
    });
    return;
  }
  const folder = await stat(deps.config.dataDir).catch(() => null);
  const writable =
    folder?.isDirectory() &&
    (await access(deps.config.dataDir, constants.W_OK).then(
      () => true,
      () => false,
    ));
  if (!writable) throw new Error('the data folder (SVC_DATA_DIR) is missing or not writable');
}
