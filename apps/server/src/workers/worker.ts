import { closeDuckFiles } from '../data';
import { attachWorkerServices } from '../nodeServices';
import { serveTasks } from '../platform/workerRuntime';
import { tasks } from './tasks';

/**
 * A background worker thread: serves the tasks every feature registers (tasks.ts), with the same services and
 * hooks between features the app's composition root builds (segment rules that count A/B variant members). When
 * the pool closes, the thread closes the DuckDB files it owns once its tasks have ended.
 */
serveTasks(tasks, { setup: attachWorkerServices, release: closeDuckFiles });
