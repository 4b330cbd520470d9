import type { AppDeps } from '../platform/context';
import type { DataPlane } from './plane';
import { postgresPlane } from './postgresPlane';
import { sqlitePlane } from './sqlitePlane';

/** The data plane of the app's backend (plane.ts): SQLite files, or PostgreSQL schemas. */
export function dataPlane(deps: AppDeps): DataPlane {
  return deps.storage.backend === 'postgres' ? postgresPlane(deps) : sqlitePlane(deps);
}
