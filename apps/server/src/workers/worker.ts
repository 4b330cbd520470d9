import { closeDuckFiles } from '../data';
import { registerVariantRules } from '../journey-engine/tasks';
import { serveTasks } from '../platform/workerRuntime';
import { tasks } from './tasks';

/**
 * A background worker thread: serves the tasks every feature registers (tasks.ts), with the same hooks
 * between features the app wires at start (segment rules that count A/B variant members). When the pool
 * closes, the thread closes the DuckDB files it owns once its tasks have ended.
 */
serveTasks(tasks, { setup: registerVariantRules, release: closeDuckFiles });
