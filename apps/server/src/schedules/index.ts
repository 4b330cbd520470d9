/**
 * Scheduled queries (`/v3/schedule/*`): what the rest of the service uses of them. The app mounts the
 * routes and starts the scheduler; a schedule's runs are ordinary jobs (jobs/) carrying its name and slot.
 */
export { scheduleRoutes } from './routes';
export { createScheduler, type Scheduler, type SchedulerOptions } from './scheduler';
