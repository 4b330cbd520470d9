import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { AppDeps } from '../platform/context';
import { one, sql } from '../platform/storage';
import type { RunOptions } from '../platform/workerPool';
import type { DatabaseRow } from './catalog';
import { duckFile } from './duckFiles';
import { duckPlane } from './duckPlane';
import type { DataPlane } from './plane';
import { postgresPlane } from './postgresPlane';

type PlaneDeps = Pick<AppDeps, 'storage' | 'config'>;

/**
 * Whether customer rows live in DuckDB files: the embedded mode, whose control database is SQLite (issue 28,
 * decision 0053: the DuckDB plane replaced the SQLite data plane; the PostgreSQL mode keeps its schemas).
 */
export function onDuck(deps: Pick<AppDeps, 'storage'>): boolean {
  return deps.storage.backend === 'sqlite';
}

/** The data plane of the app's backend (plane.ts): DuckDB files, or PostgreSQL schemas. */
export function dataPlane(deps: AppDeps): DataPlane {
  return onDuck(deps) ? duckPlane(deps) : postgresPlane(deps);
}

/**
 * The worker lane of a database's data (platform/workerPool.ts): every write to it goes through the lane, so
 * its writes keep their order and the request loop never waits on them. Named for its DuckDB file.
 */
function dataLane(deps: Pick<AppDeps, 'config'>, database: Pick<DatabaseRow, 'account_id' | 'id'>): string {
  return duckOwner(deps, database);
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
 * when not. Embedded: the data folder holding the database files is there and writable. PostgreSQL: the
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
