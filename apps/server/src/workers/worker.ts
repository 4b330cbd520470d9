import { serveTasks } from '../platform/workerRuntime';
import { tasks } from './tasks';

/** A background worker thread: serves the tasks every feature registers (tasks.ts). */
serveTasks(tasks);
