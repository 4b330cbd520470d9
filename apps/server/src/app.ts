import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { secureHeaders } from 'hono/secure-headers';
import { accountConsoleRoutes } from './accounts/consoleRoutes';
import { accountRoutes } from './accounts/routes';
import { audienceRoutes } from './audiences/routes';
import { audienceScheduleTick } from './audiences/schedule';
import { auditRoutes } from './audit';
import { bulkImportRoutes, bulkImportUploadRoutes } from './bulk-import/routes';
import { bulkLoadRoutes } from './bulk-loads/routes';
import { bulkLoadRunRoutes } from './bulk-loads/runRoutes';
import { type BulkLoadServiceOptions, createBulkLoadService } from './bulk-loads/service';
import { databaseRoutes } from './data/databaseRoutes';
import { closeDataFiles } from './data/dataFiles';
import { tableChangeRoutes } from './data/tableChangeRoutes';
import { tableRoutes } from './data/tableRoutes';
import { reconcileCatalog } from './data/tableStore';
import { demoRoutes } from './demo';
import { type DwhOptions, dwhRoutes, dwhSources } from './dwh';
import { folderPermissionRoutes } from './folder-permissions';
import { findFolder } from './folders/lookup';
import { folderRoutes } from './folders/routes';
import { tableImportRoutes } from './ingest/importRoutes';
import { postbackRoutes } from './ingest/postbackRoutes';
import { mountRecordsApi } from './ingest/recordsRoutes';
import { invitationRoutes } from './invitations';
import { jobRoutes } from './jobs/routes';
import { createJobService, type JobServiceOptions } from './jobs/service';
import { journeyEngineRoutes } from './journey-engine/routes';
import { createJourneyScheduler, type JourneySchedulerOptions } from './journey-engine/scheduler';
import { activationRoutes } from './journeys/activationRoutes';
import { journeyRoutes } from './journeys/routes';
import { overviewRoutes } from './overview/routes';
import type { AppDeps, AppEnv } from './platform/context';
import { badRequest, payloadTooLarge } from './platform/errors';
import {
  closeOnRefusal,
  errorHandler,
  noStoreWhenAuthenticated,
  notFoundHandler,
  requestLogger,
} from './platform/http';
import { limits } from './platform/limits';
import { documentNotFound } from './platform/openapi';
import { describeIssues } from './platform/params';
import { routePath } from './platform/routePath';
import { consoleStatic } from './platform/static';
import { utf8Bodies } from './platform/utf8';
import { atStartup, attachWork, startupDone } from './platform/work';
import { referenceRoutes } from './reference/routes';
import { resultRoutes } from './results/routes';
import { savedQueryRoutes } from './saved-queries';
import { createScheduler, type SchedulerOptions, scheduleRoutes } from './schedules';
import { credentialRoutes } from './session/credentialRoutes';
import { consoleCsrfGuard } from './session/csrf';
import { SESSION_PATHS, sessionPrincipal } from './session/principal';
import { consoleRoutes } from './session/routes';
import { rotateOnPrivilegeChange } from './session/sessions';
import { ssoDomainRoutes } from './sso/domainRoutes';
import { ssoMetadataTick } from './sso/metadataUrl';
import { ssoRoutes } from './sso/routes';
import { samlRoutes } from './sso/samlRoutes';
import { ssoProven } from './sso/userSso';
import { healthRoutes } from './system/health';
import { mountNotOffered } from './system/notOffered';
import { systemRoutes } from './system/routes';
import { createWorkers } from './workers';

export type { AppDeps } from './platform/context';

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

/** Builds the whole service from its dependencies. No globals: tests build as many as they like. */
export function createApp(deps: AppDeps, options: AppOptions = {}) {
  // Heavy work (imports, builds, engine runs, group commits) runs in these threads, never on the request loop.
  const workers = createWorkers(deps, options.workers?.size);
  attachWork(deps, workers);
  if (options.workers?.prewarm) workers.prewarm();
  const app = new OpenAPIHono<AppEnv>({
    getPath: routePath,
    defaultHook: (result) => {
      if (!result.success) throw badRequest(describeIssues(result.error), { issues: result.error.issues });
    },
  });
  app.use(requestLogger(deps));
  app.use(closeOnRefusal());
  app.use(noStoreWhenAuthenticated());
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        frameSrc: ["'none'"],
      },
    }),
  );
  app.onError(errorHandler(deps));
  app.notFound(notFoundHandler);

  // Ordinary routes take bodies up to 1 MiB; upload routes mount their own larger limits before this.
  const ordinaryBody = bodyLimit({
    maxSize: limits.bodyBytes,
    onError: () => {
      throw payloadTooLarge(`The request body is larger than the limit of ${limits.bodyBytes} bytes.`);
    },
  });
  // The console uploads import parts with its session: a raw body, so only the console header guards it.
  app.use('/v3/bulk_import/upload_part/*', sessionPrincipal(deps, { rawBody: true }));
  app.route('/', bulkImportUploadRoutes(deps));
  app.route('/', tableImportRoutes(deps));
  // Once per path: `/audiences/*` also matches `/audiences`, and a second limit after utf8Bodies read the body
  // would find its stream taken.
  for (const path of ['/v3/*', '/v1/*', '/entities/*', '/audiences/*', '/console-api/*']) {
    app.use(path, ordinaryBody, utf8Bodies());
  }
  app.use('/console-api/*', consoleCsrfGuard());
  for (const path of SESSION_PATHS) app.use(path, sessionPrincipal(deps));

  app.route('/', systemRoutes());
  app.route('/', healthRoutes(deps));
  mountNotOffered(app, deps);
  // accounts/ cannot import sso/ or session/ (they import it): their answers are handed in here.
  app.route('/', accountRoutes(deps, ssoProven));
  app.route('/', consoleRoutes(deps));
  app.route('/', credentialRoutes(deps));
  app.route(
    '/',
    accountConsoleRoutes(deps, {
      ssoProven,
      privilegeChanged: (c, user) => rotateOnPrivilegeChange(deps, c, user),
    }),
  );
  app.route('/', invitationRoutes(deps));
  app.route('/', auditRoutes(deps));
  atStartup(deps, reconcileCatalog(deps));
  app.route('/', databaseRoutes(deps));
  app.route('/', tableRoutes(deps));
  app.route('/', tableChangeRoutes(deps));
  app.route('/', postbackRoutes(deps));
  app.route('/', resultRoutes(deps));
  app.route('/', bulkLoadRoutes(deps));
  app.route('/', ssoRoutes(deps));
  app.route('/', ssoDomainRoutes(deps));
  app.route('/', samlRoutes(deps));
  const jobs = createJobService(deps, options.jobs);
  app.route('/', jobRoutes(deps, jobs));
  app.route('/', bulkImportRoutes(deps, jobs));
  app.route('/', audienceRoutes(deps, jobs));
  app.route('/', scheduleRoutes(deps, jobs));
  app.route('/', savedQueryRoutes(deps, jobs));
  const schedules = createScheduler(deps, jobs, options.schedules);
  app.route('/', folderRoutes(deps));
  const bulkLoads = createBulkLoadService(deps, jobs, dwhSources(deps, options.dwh), options.bulkLoads);
  // Parent segments rebuild on their schedule at the same tick as the bulk loads' cron.
  bulkLoads.onTick(audienceScheduleTick(deps, jobs));
  // Followed IdP metadata URLs are fetched again at the same tick (decision 0049).
  bulkLoads.onTick(ssoMetadataTick(deps));
  app.route('/', bulkLoadRunRoutes(deps, bulkLoads));
  app.route('/', dwhRoutes(deps, bulkLoads, options.dwh));
  app.route('/', journeyRoutes(deps));
  app.route('/', activationRoutes(deps));
  app.route('/', journeyEngineRoutes(deps));
  app.route('/', overviewRoutes(deps));
  app.route('/', folderPermissionRoutes(deps, findFolder));
  const journeyEngine = createJourneyScheduler(deps, options.journeyEngine);
  app.route(
    '/',
    demoRoutes(deps, { request: (path, init) => app.request(path, init), services: { jobs, journeyEngine } }),
  );

  app.get('/openapi.json', (c) =>
    c.json(
      documentNotFound(
        app.getOpenAPI31Document({
          openapi: '3.1.0',
          info: {
            title: 'SVC customer data platform API',
            version: '0.1.0',
            description:
              'REST API compatible with the Treasure Data v3 family. Authenticate with `Authorization: SVC1 <API key>`. Every error answers `{error, message, text, severity, status_code}` (`/v1` too); a 404 exactly those five.',
          },
          servers: [{ url: '/' }],
        }),
      ),
    ),
  );
  app.openAPIRegistry.registerComponent('securitySchemes', 'SVC1', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'The word SVC1 (any case; TD1 is an alias), a space and the API key: `SVC1 1/0123…`.',
  });

  app.route(
    '/',
    referenceRoutes(async () => (await app.request('/openapi.json')).json()),
  );

  // Last of the API routes: the records API matches two-segment POST paths and passes others on.
  mountRecordsApi(app, deps);
  if (deps.config.consoleDir) app.use('*', consoleStatic(deps.config.consoleDir));
  // Start-up recovery of this node's jobs is part of `ready`; each logs its own failure.
  atStartup(
    deps,
    jobs.start().catch((err) => deps.logger.error('job runner start failed', { error: String(err) })),
  );
  journeyEngine.start();
  schedules.start();
  // `services.jobs` lets job kinds register and tests await jobs; `stop()` ends workers before the db closes.
  return Object.assign(app, {
    services: { jobs, bulkLoads, journeyEngine, schedules, workers },
    /** Resolves once start-up recovery (commits a crash left half done) has ended. */
    ready: startupDone(deps),
    /** Stops timers and jobs at once; the promise ends when the worker threads have. */
    stop: (): Promise<void> => {
      journeyEngine.stop();
      schedules.stop();
      jobs.stop();
      closeDataFiles(deps);
      return workers.close();
    },
  });
}

export type App = ReturnType<typeof createApp>;
