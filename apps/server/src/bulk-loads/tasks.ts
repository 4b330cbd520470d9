import type { DatabaseRow } from '../data';
import type { TaskContext } from '../platform/workerRuntime';
import { type Landing, land, landedStateHere } from './land';

/** Landing runs in a background worker, in the lane of the database's file (`landInWorker`). */
export const bulkLoadTasks = {
  'bulk-loads.land': (ctx: TaskContext, l: Landing) => land(ctx.deps, l),
  'bulk-loads.landed-state': (
    ctx: TaskContext,
    a: { database: DatabaseRow; session: { id: number; created_at: number } },
  ) => landedStateHere(ctx.deps, a.database, a.session),
};
