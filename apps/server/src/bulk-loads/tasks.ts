import type { TaskContext } from '../platform/workerRuntime';
import { type Landing, land } from './land';

/** Landing runs in a background worker, in the lane of the database's file (`landInWorker`). */
export const bulkLoadTasks = {
  'bulk-loads.land': (ctx: TaskContext, l: Landing) => land(ctx.deps, l),
};
