import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { AppDeps } from '../platform/context';
import { one, sql } from '../platform/storage';
import type { DataPlane } from './plane';
import { postgresPlane } from './postgresPlane';
import { sqlitePlane } from './sqlitePlane';

/** The data plane of the app's backend (plane.ts): SQLite files, or PostgreSQL schemas. */
export function dataPlane(deps: AppDeps): DataPlane {
  return deps.storage.backend === 'postgres' ? postgresPlane(deps) : sqlitePlane(deps);
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
