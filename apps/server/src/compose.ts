import { audienceScheduleTick } from './audiences/schedule';
import { type BulkLoadServiceOptions, createBulkLoadService } from './bulk-loads/service';
import { type DwhOptions, dwhSources } from './dwh';
import { createJobService, type JobServiceOptions } from './jobs/service';
import { createJourneyScheduler, type JourneySchedulerOptions } from './journey-engine/scheduler';
import { nodeServices } from './nodeServices';
import type { AppDeps } from './platform/context';
import { atStartup } from './platform/work';
import { createScheduler, type SchedulerOptions } from './schedules';
import { ssoMetadataTick } from './sso/metadataUrl';
import { createWorkers } from './workers';

/**
 * The composition root (docs/decisions/0051-one-composition-root.md): every service of an app is built here,
 * once, in the order below, and handed over; features find theirs in `deps.services` or receive them as
 * arguments, and no module keeps services of its own. `stop()` closes them in the reverse order.
 */

/** Settings of the app's services, beyond its dependencies (tests shorten limits here). */
export interface AppOptions {
  jobs?: JobServiceOptions;
  dwh?: DwhOptions;
  /** The journey engine's schedule and activation deliveries (tests turn the timer off and tick by hand). */
  journeyEngine?: JourneySchedulerOptions;
  /** The scheduler of scheduled queries (tests turn its timer off and tick by hand). */
  schedules?: SchedulerOptions;
  /** How often schedules are checked (`SVC_SCHEDULE_INTERVAL_SECONDS`). */
  bulkLoads?: BulkLoadServiceOptions;
  /** Most background worker threads (default from SVC_WORKERS); `prewarm` starts them with the app. */
  workers?: { size?: number; prewarm?: boolean };
}

/**
 * Builds the app's services onto `deps` (one app per deps), in this order: the worker pool, the services of
 * `deps.services`, the job runner, the scheduler of scheduled queries, the bulk loads (whose tick also rebuilds
 * parent segments and refetches IdP metadata), the journey engine.
 */
export function composeApp(deps: AppDeps, options: AppOptions) {
  if (deps.services) throw new Error('These deps already belong to an app: build each app from deps of its own.');
  // Heavy work (imports, builds, engine runs, group commits) runs in these threads, never on the request loop.
  const workers = createWorkers(deps, options.workers?.size);
  deps.services = nodeServices(deps, workers);
  if (options.workers?.prewarm) workers.prewarm();
  const jobs = createJobService(deps, options.jobs);
  const schedules = createScheduler(deps, jobs, options.schedules);
  const bulkLoads = createBulkLoadService(deps, jobs, dwhSources(deps, options.dwh), options.bulkLoads);
  // Parent segments rebuild on their schedule at the same tick as the bulk loads' cron.
  bulkLoads.onTick(audienceScheduleTick(deps, jobs));
  // Followed IdP metadata URLs are fetched again at the same tick (decision 0049).
  bulkLoads.onTick(ssoMetadataTick(deps));
  const journeyEngine = createJourneyScheduler(deps, options.journeyEngine);
  return {
    workers,
    jobs,
    schedules,
    bulkLoads,
    journeyEngine,
    /** Starts the timers, once every route (and the job kinds they register) is in place. */
    start(): void {
      // Start-up recovery of this node's jobs is part of `ready`; each logs its own failure.
      atStartup(
        deps,
        jobs.start().catch((err) => deps.logger.error('job runner start failed', { error: String(err) })),
      );
      journeyEngine.start();
      schedules.start();
    },
    /**
     * Stops timers and jobs at once (the bulk loads' timer with their job kind), closes the mailer; ends when
     * the workers have (each closes the DuckDB files it owns).
     */
    stop(): Promise<void> {
      journeyEngine.stop();
      schedules.stop();
      jobs.stop();
      deps.services?.mail?.close();
      return workers.close();
    },
  };
}
