import { audienceTasks } from '../audiences/tasks';
import { bulkImportTasks } from '../bulk-import/tasks';
import { bulkLoadTasks } from '../bulk-loads/tasks';
import { dataTasks } from '../data/tasks';
import { ingestTasks } from '../ingest/tasks';
import { jobTasks } from '../jobs/tasks';
import { journeyEngineTasks } from '../journey-engine/tasks';
import type { TaskTable } from '../platform/workerRuntime';

/** Every task a background worker runs, by name; each feature keeps its own in its `tasks.ts`. */
export const tasks = {
  ...audienceTasks,
  ...bulkImportTasks,
  ...bulkLoadTasks,
  ...ingestTasks,
  ...jobTasks,
  ...dataTasks,
  ...journeyEngineTasks,
  /** Answers at once: a broadcast of it returns when every running worker has loaded (the benches wait so). */
  'workers.ready': () => undefined,
} satisfies TaskTable;

type Tasks = typeof tasks;

declare module '../platform/work' {
  /** The platform's map of tasks is this registry's (platform/work.ts names no feature). */
  interface TaskMap extends Tasks {}
}
