import { bulkImportTasks } from '../bulk-import/tasks';
import type { TaskTable } from '../platform/workerRuntime';

/** Every task a background worker runs, by name; each feature keeps its own in its `tasks.ts`. */
export const tasks: TaskTable = {
  ...bulkImportTasks,
};
